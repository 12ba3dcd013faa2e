/**
 * Start-up. `createApp` does the quick set-up of an isolate — configuration, KV, services and
 * the request handler — and returns `{handler, services, startBackground, shutdown}` without
 * listening, so any entry can serve it (`listenNodeHttp` of lib/http/node_server.ts, as
 * `startApp` and serve_isolate.ts do, or a `deno serve` module exporting `{ fetch }`). The slow
 * work (migrations, demo seed, admin account, periodic jobs) starts
 * only once the server answers (lib/startup.ts): the first byte never waits for the store.
 * `startApp` (main.ts, the entry Deno Deploy runs) serves it on the configured port through
 * `node:http`, with a clean shutdown on SIGINT/SIGTERM (live sockets get the restart hint).
 */
import { createHandler } from "$fresh/server.ts";
import type { FreshConfig, Manifest } from "$fresh/server.ts";
import { hasCurrentBuild } from "$fresh/build.ts";
import {
  ConfigError,
  configWarnings,
  linkOrigin,
  loadConfig,
  type ServerConfig,
  startNotices,
} from "./config.ts";
import { createServices, type Services, servicesPlugin } from "./services.ts";
import { retryWhileBusy, withBusyRetry } from "./store/busy_retry.ts";
import { withKvTelemetry } from "./store/instrumented_kv.ts";
import { type LiveSocketPort, startLiveSocketPort } from "./http/live_port.ts";
import { listenNodeHttp, type NodeServer } from "./http/node_server.ts";
import { routeRecorder, withRequestLog } from "./http/request_log.ts";
import type { CronJobs } from "./jobs.ts";
import { type BackgroundWork, startBackgroundWork } from "./startup.ts";
import { observeSockets } from "./telemetry.ts";

const SHUTDOWN_TIMEOUT_MS = 5_000;

/** The running app, for callers that stop it themselves. */
export interface RunningApp {
  config: ServerConfig;
  /** Resolves once the server has stopped and every resource is closed. */
  finished: Promise<void>;
  shutdown(): Promise<void>;
}

/** Prints a one-line error (no stack trace) and exits with status 1. */
function fail(message: string): never {
  console.error(message);
  Deno.exit(1);
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

function readConfig(): ServerConfig {
  try {
    return loadConfig(Deno.env.toObject());
  } catch (err) {
    if (err instanceof ConfigError) fail(`Configuration error: ${err.message}`);
    throw err;
  }
}

/**
 * The store, measured (instrumented_kv.ts); a local file's is retried while another process
 * holds its lock (busy_retry.ts). "" is the default store (Deno Deploy's).
 */
async function openKv(path: string): Promise<Deno.Kv> {
  try {
    const kv = await retryWhileBusy(() => Deno.openKv(path === "" ? undefined : path));
    const local = path !== "" && !/^https?:\/\//i.test(path);
    return withKvTelemetry(local ? withBusyRetry(kv) : kv);
  } catch (err) {
    fail(`Error: cannot open the KV store at "${path || "default"}": ${firstLine(err)}`);
  }
}

/** The one-line error of a Deploy start without a current `deno task build`. */
export const MISSING_BUILD_ERROR = "Error: no current build in _fresh/ " +
  "(run `deno task build` before deploying; Deno Deploy cannot bundle at run time)";

/** On Deploy, ends the start with one line when `_fresh/` holds no current build. */
async function assertBuilt(manifest: Manifest, freshConfig: FreshConfig): Promise<void> {
  if (!await hasCurrentBuild(manifest, freshConfig)) fail(MISSING_BUILD_ERROR);
}

/**
 * Serves `app` on the configured port through `node:http` (node_server.ts), as every isolate of
 * `npm start` does: /ws frames are then read by `ws`, which refuses one larger than the largest
 * client message from its header, where `Deno.serve`'s WebSocket would read it whole (up to
 * 64 MiB) first. This is what Deno Deploy runs (main.ts).
 */
async function listen(app: App): Promise<NodeServer> {
  const { config, services, handler } = app;
  try {
    const server = await listenNodeHttp(services, {
      hostname: config.host,
      port: config.port,
      handler,
    });
    console.log(`Listening on http://localhost:${config.port}`);
    return server;
  } catch (err) {
    if ((err as { code?: string }).code === "EADDRINUSE") {
      fail(`Error: port ${config.port} is already in use (set PORT to another port)`);
    }
    fail(`Error: cannot listen on ${config.host}:${config.port}: ${firstLine(err)}`);
  }
}

/** Calls `onSignal` once on SIGINT or SIGTERM; a second signal exits at once. */
function onShutdownSignal(onSignal: () => void): () => void {
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  let received = false;
  const listener = () => {
    if (received) Deno.exit(130);
    received = true;
    onSignal();
  };
  for (const signal of signals) Deno.addSignalListener(signal, listener);
  return () => {
    for (const signal of signals) Deno.removeSignalListener(signal, listener);
  };
}

/** The live feed's own port (LIVE_WS_PORT); a port that cannot be had ends the start. */
async function listenLive(services: Services, config: ServerConfig): Promise<LiveSocketPort> {
  const port = config.liveWsPort!;
  try {
    return await startLiveSocketPort(services, config.host, port);
  } catch (err) {
    if ((err as { code?: string }).code === "EADDRINUSE") {
      fail(`Error: LIVE_WS_PORT ${port} is already in use (set LIVE_WS_PORT to another port)`);
    }
    fail(`Error: cannot listen on ${config.host}:${port} (LIVE_WS_PORT): ${firstLine(err)}`);
  }
}

/** One isolate's app: its handler and services, not yet listening. */
export interface App {
  config: ServerConfig;
  services: Services;
  handler: (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;
  /** Starts the start-up work and the periodic jobs (call it once the server listens). */
  startBackground(): BackgroundWork;
  /** Stops the background work, closes the live hub and the KV store (stop serving first). */
  shutdown(): Promise<void>;
}

export interface CreateAppOptions {
  /** Wraps the store before the services use it (benches add latency to every round trip). */
  wrapKv?: (kv: Deno.Kv) => Deno.Kv;
  /** The entry's `Deno.cron` jobs (registerCronJobs), given this app once it starts. */
  cronJobs?: CronJobs;
}

/**
 * Sets the app up from the environment: configuration, KV, services and the handler that hands
 * them to every request through `ctx.state`. Configuration problems print
 * `Configuration error: …` and exit with status 1.
 */
export async function createApp(
  manifest: Manifest,
  freshConfig: FreshConfig = {},
  opts: CreateAppOptions = {},
): Promise<App> {
  const config = readConfig();
  // Under `deno serve --parallel` scripts/start.ts printed the warnings once for all isolates.
  if (!Deno.env.get("SERVE_ISOLATES")) {
    for (const warning of configWarnings(config)) console.warn(warning);
  }
  if (config.deploy) await assertBuilt(manifest, freshConfig);
  if (!Deno.env.get("SERVE_ISOLATES")) {
    for (const notice of startNotices(config)) console.log(notice);
  }
  const opened = await openKv(config.kvPath);
  const kv = opts.wrapKv ? opts.wrapKv(opened) : opened;
  const services = createServices(config, kv);
  observeSockets(() => services.hub.stats().sockets);
  const origin = linkOrigin(config);
  const livePort = config.liveWsPort ? await listenLive(services, config) : null;
  const handler = await createHandler(manifest, {
    ...freshConfig,
    plugins: [...(freshConfig.plugins ?? []), routeRecorder, servicesPlugin(services)],
    server: { ...freshConfig.server, port: config.port, hostname: config.host },
  });
  let background: BackgroundWork | null = null;
  const startBackground = () => {
    if (background) return background;
    background = startBackgroundWork(services, config, origin, opts.cronJobs);
    services.startUp = background.state;
    return background;
  };
  services.startUp = { done: false, error: null };
  let closing: Promise<void> | null = null;
  const shutdown = () =>
    closing ??= (async () => {
      await livePort?.close();
      await services.hub.close();
      await background?.stop();
      await services.payments.settled();
      opened.close();
    })();
  return {
    config,
    services,
    handler: withRequestLog(handler, config.requestLog),
    startBackground,
    shutdown,
  };
}

/**
 * Starts the app from the environment and serves `manifest` until SIGINT/SIGTERM.
 * Configuration problems print `Configuration error: …` and exit with status 1.
 */
export async function startApp(
  manifest: Manifest,
  freshConfig: FreshConfig = {},
  opts: CreateAppOptions = {},
): Promise<RunningApp> {
  const app = await createApp(manifest, freshConfig, opts);
  const { config, services } = app;
  const server = await listen(app);
  let stopped = () => {};
  const finished = new Promise<void>((resolve) => stopped = resolve);
  app.startBackground();

  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= (async () => {
      removeSignals();
      const force = setTimeout(() => {
        console.error("Shutdown timed out; exiting.");
        Deno.exit(1);
      }, SHUTDOWN_TIMEOUT_MS);
      await services.hub.close();
      await server.close();
      await app.shutdown();
      stopped();
      clearTimeout(force);
    })();
    return stopping;
  };
  const removeSignals = onShutdownSignal(() => {
    shutdown().then(() => Deno.exit(0), (err) => fail(`Error during shutdown: ${firstLine(err)}`));
  });

  return { config, finished, shutdown };
}
