/**
 * Start-up (ARCHITECTURE §5). `createApp` does the one-time set-up of an isolate —
 * configuration, KV, demo data, admin account, services (with the live hub) and the request
 * handler — and returns `{handler, services, shutdown}` without listening, so any entry can
 * serve it (`Deno.serve`, or a `deno serve` module exporting `{ fetch }`). `startApp` serves it
 * on the configured port with a clean shutdown on SIGINT/SIGTERM.
 */
import { createHandler } from "$fresh/server.ts";
import type { FreshConfig, Manifest } from "$fresh/server.ts";
import {
  ConfigError,
  configWarnings,
  linkOrigin,
  loadConfig,
  type ServerConfig,
} from "./config.ts";
import { createServices, type Services, servicesPlugin } from "./services.ts";
import { seedDemoDataIfEmpty } from "./db/seed.ts";
import { backfillRosters } from "./db/roster.ts";
import { migrateCompetitionPlayerSalaries } from "./db/competition_players.ts";
import { migrateEntriesByEmail } from "./db/entries_by_email.ts";
import { ensureAdmin } from "./auth/admins.ts";
import { startPaymentSweeper } from "./payments/sweep.ts";
import { releaseLease, takeLease } from "./db/leases.ts";
import { retryWhileBusy, withBusyRetry } from "./db/busy_retry.ts";
import { type LiveSocketPort, startLiveSocketPort } from "./http/live_port.ts";

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

/** The store, retried while another process holds the file's lock (see busy_retry.ts). */
async function openKv(path: string): Promise<Deno.Kv> {
  try {
    return withBusyRetry(await retryWhileBusy(() => Deno.openKv(path === "" ? undefined : path)));
  } catch (err) {
    fail(`Error: cannot open the KV store at "${path}": ${firstLine(err)}`);
  }
}

function serve(config: ServerConfig, handler: Deno.ServeHandler): Deno.HttpServer {
  try {
    return Deno.serve({
      port: config.port,
      hostname: config.host,
      onListen: ({ port }) => console.log(`Listening on http://localhost:${port}`),
    }, handler);
  } catch (err) {
    if (err instanceof Deno.errors.AddrInUse) {
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

const STARTUP_LEASE = "startup";
const STARTUP_LEASE_MS = 60_000;

/**
 * The one-time work of a start (demo seed, roster backfill, admin account), done under a KV
 * lease: isolates and processes that start at once on one store take turns, so there is exactly
 * one seed and one admin, and a generated admin password is printed once.
 */
async function startUpOnce(kv: Deno.Kv, config: ServerConfig): Promise<void> {
  const owner = crypto.randomUUID();
  while (!await takeLease(kv, STARTUP_LEASE, owner, STARTUP_LEASE_MS)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  try {
    await migrateCompetitionPlayerSalaries(kv);
    await migrateEntriesByEmail(kv);
    if (config.demoData) await seedDemoDataIfEmpty(kv);
    await backfillRosters(kv);
    const admin = await ensureAdmin(kv, config.adminUsername, config.adminPassword);
    if (admin.generatedPassword) {
      console.log(
        `Created admin "${admin.username}" with password: ${admin.generatedPassword} ` +
          "(shown once; set ADMIN_USERNAME/ADMIN_PASSWORD to choose your own)",
      );
    }
  } finally {
    await releaseLease(kv, STARTUP_LEASE, owner);
  }
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
  /** Closes the live hub and the KV store (stop serving first). */
  shutdown(): Promise<void>;
}

/**
 * Sets the app up from the environment: configuration, KV, demo data, admin account, services
 * and the handler that hands them to every request through `ctx.state`. Configuration problems
 * print `Configuration error: …` and exit with status 1.
 */
export async function createApp(manifest: Manifest, freshConfig: FreshConfig = {}): Promise<App> {
  const config = readConfig();
  // Under `deno serve --parallel` scripts/start.ts printed the warnings once for all isolates.
  if (!Deno.env.get("SERVE_ISOLATES")) {
    for (const warning of configWarnings(config)) console.warn(warning);
  }
  const kv = await openKv(config.kvPath);
  await startUpOnce(kv, config);
  const services = createServices(config, kv);
  const origin = linkOrigin(config, new URL(`http://localhost:${config.port}`));
  const sweeper = startPaymentSweeper(services, origin);
  const livePort = config.liveWsPort ? await listenLive(services, config) : null;
  const handler = await createHandler(manifest, {
    ...freshConfig,
    plugins: [...(freshConfig.plugins ?? []), servicesPlugin(services)],
    server: { ...freshConfig.server, port: config.port, hostname: config.host },
  });
  let closing: Promise<void> | null = null;
  const shutdown = () =>
    closing ??= (async () => {
      await livePort?.close();
      await services.hub.close();
      await sweeper.stop();
      kv.close();
    })();
  return { config, services, handler, shutdown };
}

/**
 * Starts the app from the environment and serves `manifest` until SIGINT/SIGTERM.
 * Configuration problems print `Configuration error: …` and exit with status 1.
 */
export async function startApp(
  manifest: Manifest,
  freshConfig: FreshConfig = {},
): Promise<RunningApp> {
  const app = await createApp(manifest, freshConfig);
  const { config, services, handler } = app;
  const server = serve(config, (req, info) => handler(req, info));

  let stopping: Promise<void> | null = null;
  const shutdown = () => {
    stopping ??= (async () => {
      removeSignals();
      const force = setTimeout(() => {
        console.error("Shutdown timed out; exiting.");
        Deno.exit(1);
      }, SHUTDOWN_TIMEOUT_MS);
      await services.hub.close();
      await server.shutdown();
      await app.shutdown();
      clearTimeout(force);
    })();
    return stopping;
  };
  const removeSignals = onShutdownSignal(() => {
    shutdown().then(() => Deno.exit(0), (err) => fail(`Error during shutdown: ${firstLine(err)}`));
  });

  return { config, finished: server.finished, shutdown };
}

/**
 * One isolate of `deno serve --parallel` (serve.ts; scripts/start.ts checks the configuration
 * first): this isolate's app over the shared store, as `{ fetch }`. On SIGINT/SIGTERM it closes
 * its live hub, sweeper and store and ends the process (an open `kv.watch` would otherwise keep
 * `deno serve` from exiting).
 */
export async function serveIsolate(
  manifest: Manifest,
  freshConfig: FreshConfig = {},
): Promise<Deno.ServeDefaultExport> {
  const app = await createApp(manifest, freshConfig);
  let stopping = false;
  // Every isolate gets the signal (and the launcher may pass it on again): the first to finish
  // closing ends the process.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => Deno.exit(1), SHUTDOWN_TIMEOUT_MS);
    app.shutdown().then(() => {
      clearTimeout(force);
      Deno.exit(0);
    }, (err) => fail(`Error during shutdown: ${firstLine(err)}`));
  };
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  return { fetch: (req, info) => app.handler(req, info) };
}
