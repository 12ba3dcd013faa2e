/**
 * One isolate of `npm start` (a Worker started by serve.ts): this isolate's app over the shared
 * store, served on the port through `node:http` (lib/http/node_server.ts), which every isolate
 * opens with `reusePort`. It tells the launcher `listening` (or `failed`), and on `stop` closes
 * its server, live hub, sweeper and store, then answers `stopped`.
 */
import manifest from "./fresh.gen.ts";
import config from "./fresh.config.ts";
import { createApp } from "./lib/app.ts";
import { listenNodeHttp } from "./lib/http/node_server.ts";

const app = await createApp(manifest, config);
const scope = self as unknown as Worker;
try {
  const server = await listenNodeHttp(app.services, {
    hostname: app.config.host,
    port: app.config.port,
    handler: app.handler,
  });
  scope.onmessage = async (event: MessageEvent) => {
    if (event.data !== "stop") return;
    await app.services.hub.close();
    await server.close();
    await app.shutdown();
    scope.postMessage("stopped");
  };
  scope.postMessage("listening");
  // Seed, admin, migrations and the sweeps run once the port answers (/readyz says when done).
  app.startBackground();
} catch (err) {
  const code = (err as { code?: string }).code;
  scope.postMessage(code === "EADDRINUSE" ? "in use" : `failed: ${err}`);
}
