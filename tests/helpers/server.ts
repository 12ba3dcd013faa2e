/**
 * Starts the real app as `npm start` does (`deno run -A scripts/start.ts`, which runs
 * `deno serve` over serve.ts) in a child process on a free 127.0.0.1 port, with an in-memory KV
 * (one isolate), demo data and a known admin, for browser and end-to-end tests.
 */
import { waitFor } from "@/tests/helpers/wait.ts";

const ROOT = new URL("../../", import.meta.url);
const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. "http://127.0.0.1:41234". */
  url: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Stops the server and waits for the process to exit. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL, no shutdown) and waits for it to be gone. */
  kill(): Promise<void>;
  /** The pid of the server process (all its isolates), as scripts/start.ts printed it. */
  servePid(): number | null;
}

export interface StartServerOptions {
  /** Extra or overriding environment variables for the app. */
  env?: Record<string, string>;
}

/**
 * The environment of an app process (main.ts, serve.ts or scripts/start.ts) on
 * 127.0.0.1:`port` over `kvPath`, without demo data, whose admin is `admin`/`adminPassword`;
 * `extra` adds or overrides variables.
 */
export function appEnv(
  port: number,
  kvPath: string,
  adminPassword: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    DENO_KV_PATH: kvPath,
    DEMO_DATA: "0",
    ADMIN_USERNAME: "admin",
    ADMIN_PASSWORD: adminPassword,
    ...extra,
  };
}

/** A port that was free a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function collect(stream: ReadableStream<Uint8Array>, sink: string[]): Promise<void> {
  const echo = Deno.env.get("SERVER_LOG") === "1";
  const decoder = new TextDecoder();
  for await (const bytes of stream) {
    const chunk = decoder.decode(bytes, { stream: true });
    sink.push(chunk);
    if (echo) console.error(chunk.trimEnd());
  }
}

/** Probes on a new connection each, so `deno serve --parallel` spreads them over its isolates. */
const probeClient = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });

/** The isolate that answered `/readyz` ready and how many the server runs; null otherwise. */
async function probeHealth(url: string): Promise<{ isolate: string; isolates: number } | null> {
  try {
    const init: RequestInit & { client: Deno.HttpClient } = { client: probeClient };
    const res = await fetch(`${url}/readyz`, init);
    await res.body?.cancel();
    if (!res.ok) return null;
    return {
      isolate: res.headers.get("x-isolate") ?? "",
      isolates: Number(res.headers.get("x-isolates") ?? 1),
    };
  } catch {
    return null;
  }
}

/**
 * Starts the app and resolves once `/readyz` answers 200 (its start-up work is done).
 * @example const server = await startServer(); try { ... } finally { await server.stop(); }
 */
export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/start.ts"],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: appEnv(port, ":memory:", "admin-test-password", {
      DEMO_DATA: "1",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      SMTP_URL: "",
      NO_COLOR: "1",
      ...opts.env,
    }),
  }).spawn();

  const chunks: string[] = [];
  const readers = Promise.all([collect(child.stdout, chunks), collect(child.stderr, chunks)]);
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });

  const stop = async () => {
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => !exited && child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await status;
      clearTimeout(timer);
    }
    await readers;
  };

  const servePid = () => Number(/server pid (\d+)/.exec(chunks.join(""))?.[1]) || null;

  /** SIGKILL to `deno serve`, then to the launcher. */
  const kill = async () => {
    const pid = servePid();
    if (pid) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    if (!exited) child.kill("SIGKILL");
    await status;
    await readers;
  };

  // Healthy once every isolate has answered (each probe is a new connection).
  const seen = new Set<string>();
  const state = await waitFor("the app healthy", async () => {
    if (exited) return "exited";
    const probe = await probeHealth(url);
    if (probe) seen.add(probe.isolate);
    return probe !== null && seen.size >= probe.isolates && "healthy";
  }, { timeoutMs: STARTUP_TIMEOUT_MS, everyMs: 100 }).catch(() => "not healthy");
  if (state !== "healthy") {
    await stop();
    const why = state === "exited"
      ? `exited with code ${(await status).code}`
      : "did not become healthy";
    throw new Error(`The app ${why} within the startup wait. Output:\n${chunks.join("")}`);
  }
  return { url, output: () => chunks.join(""), stop, kill, servePid };
}
