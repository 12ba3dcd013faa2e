/**
 * `npm start` (`deno task start`): checks the configuration, then serves the app on every core
 * through serve.ts (one isolate per core sharing the port; DENO_JOBS or WEB_CONCURRENCY to
 * choose). The isolates share nothing but the KV store.
 * SIGINT/SIGTERM are passed on; the exit status is the server's.
 */
import {
  ConfigError,
  configWarnings,
  loadConfig,
  loadServeJobs,
  startNotices,
} from "@/lib/config.ts";

const ROOT = new URL("../", import.meta.url);

function fail(message: string): never {
  console.error(message);
  Deno.exit(1);
}

function readSettings() {
  try {
    const env = Deno.env.toObject();
    const config = loadConfig(env);
    return { config, jobs: loadServeJobs(env, config.kvPath) };
  } catch (err) {
    if (err instanceof ConfigError) fail(`Configuration error: ${err.message}`);
    throw err;
  }
}

/** The friendly message for a port taken by another program, before the server tries it. */
function assertPortFree(hostname: string, port: number): void {
  try {
    Deno.listen({ hostname, port }).close();
  } catch (err) {
    if (err instanceof Deno.errors.AddrInUse) {
      fail(`Error: port ${port} is already in use (set PORT to another port)`);
    }
    const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
    fail(`Error: cannot listen on ${hostname}:${port}: ${why}`);
  }
}

const { config, jobs } = readSettings();
for (const warning of configWarnings(config)) console.warn(warning);
for (const notice of startNotices(config)) console.log(notice);
assertPortFree(config.host, config.port);
const args = ["run", "-A", "--config", new URL("deno.json", ROOT).pathname];
const server = new Deno.Command(Deno.execPath(), {
  args: [...args, new URL("serve.ts", ROOT).pathname],
  env: {
    HOST: config.host,
    PORT: String(config.port),
    DENO_JOBS: String(jobs),
    SERVE_ISOLATES: String(jobs),
  },
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).spawn();
console.log(`Serving with ${jobs} isolate${jobs === 1 ? "" : "s"} (server pid ${server.pid})`);
const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
for (const signal of signals) {
  Deno.addSignalListener(signal, () => {
    try {
      server.kill(signal);
    } catch {
      // already gone
    }
  });
}
Deno.exit((await server.status).code);
