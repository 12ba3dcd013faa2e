/**
 * The app as a real process on each of its two servers, for tests and benches that must go
 * through HTTP: `npm start` (scripts/start.ts → serve.ts → the `node:http` server of
 * lib/http/node_server.ts) and `main.ts` (the Deploy entry, on `Deno.serve`). Both bind a free
 * 127.0.0.1 port, start without demo data, and have the admin `admin`/`admin-test-password`.
 */
import { appEnv, freePort, startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

export const ADMIN_PASSWORD = "admin-test-password";
/** The headers an API client signs in with. */
export const ADMIN_HEADERS = { "x-admin-username": "admin", "x-admin-password": ADMIN_PASSWORD };

export interface AppProcess {
  /** "npm start" or "main.ts". */
  name: string;
  /** Base URL without a trailing slash. */
  url: string;
  /** Everything the process printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export type ServerKind = "npm start" | "main.ts";
export const SERVER_KINDS: readonly ServerKind[] = ["npm start", "main.ts"];

/** Starts the app as `kind` (on a throwaway in-memory store unless `env` names another). */
export function startAppProcess(
  kind: ServerKind,
  env: Record<string, string> = {},
): Promise<AppProcess> {
  return kind === "npm start" ? startNpm(env) : startMain(env);
}

async function startNpm(env: Record<string, string>): Promise<AppProcess> {
  const server = await startServer({ env: { DEMO_DATA: "0", DENO_JOBS: "1", ...env } });
  return { name: "npm start", url: server.url, output: server.output, stop: server.stop };
}

async function startMain(env: Record<string, string>): Promise<AppProcess> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("../../", import.meta.url),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: appEnv(port, ":memory:", ADMIN_PASSWORD, { NO_COLOR: "1", ...env }),
  }).spawn();
  const chunks: string[] = [];
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const bytes of stream) chunks.push(decoder.decode(bytes, { stream: true }));
  };
  const readers = Promise.all([collect(child.stdout), collect(child.stderr)]);
  let exited = false;
  const status = child.status.finally(() => exited = true);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) child.kill("SIGTERM");
    await status;
    await readers;
  };
  const ready = await waitFor("main.ts answers /readyz", async () => {
    if (exited) return "exited";
    const res = await fetch(`${url}/readyz`).catch(() => null);
    await res?.body?.cancel();
    return res?.ok && "ready";
  }, { timeoutMs: 60_000, everyMs: 100 }).catch(() => "not ready");
  if (ready !== "ready") {
    await stop();
    throw new Error(`main.ts is ${ready}:\n${chunks.join("")}`);
  }
  return { name: "main.ts", url, output: () => chunks.join(""), stop };
}
