/**
 * The benches' child processes: a process read line by line (its stdout) and written to (its
 * stdin), and the app's server as the benches start it (serve.ts, one isolate, on a KV file).
 * @example
 * const server = spawnServe(freePort(), kvPath);
 * await lineOf(server, "Listening on");
 */
import { appEnv } from "@/tests/helpers/server.ts";

const ROOT = new URL("../", import.meta.url);
const encoder = new TextEncoder();

/** The admin of the benches' servers. */
export const BENCH_ADMIN = { username: "admin", password: "bench-password-1" };

/** A child process: its stdout line by line, and a way to write lines to its stdin. */
export interface Proc {
  child: Deno.ChildProcess;
  lines: AsyncIterator<string>;
  write(line: string): Promise<void>;
}

/** Spawns `cmd` in the repository's root; its stdout is read line by line, its stdin takes lines. */
export function spawnLines(cmd: string, args: string[], env: Record<string, string> = {}): Proc {
  const child = new Deno.Command(cmd, {
    args,
    cwd: ROOT,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  let rest = "";
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
    new TransformStream<string, string>({
      transform(chunk, out) {
        const parts = (rest + chunk).split("\n");
        rest = parts.pop() ?? "";
        for (const part of parts) out.enqueue(part);
      },
    }),
  )[Symbol.asyncIterator]();
  return { child, lines, write: (line) => writer.write(encoder.encode(line + "\n")) };
}

/** The next line of `proc` that starts with `prefix`; throws when the process ends first. */
export async function lineOf(proc: Proc, prefix: string): Promise<string> {
  while (true) {
    const { value, done } = await proc.lines.next();
    if (done) throw new Error(`process ended before "${prefix}"`);
    if (value.startsWith(prefix)) return value;
  }
}

/**
 * One app server (serve.ts, one isolate, as `npm start` runs each) on 127.0.0.1:`port` over the
 * KV file `kvPath`, without demo data, with BENCH_ADMIN; it prints "Listening on" once it listens.
 */
export function spawnServe(port: number, kvPath: string): Proc {
  return spawnLines(
    Deno.execPath(),
    ["run", "-A", "serve.ts"],
    appEnv(port, kvPath, BENCH_ADMIN.password, { SERVE_ISOLATES: "1" }),
  );
}

/**
 * Deno Deploy's Deno (the version `.ci/deploy-deno-version` pins), installed from npm into
 * `node_modules/.cache/` on first use; its path.
 */
export async function deployDeno(): Promise<string> {
  const version = (await Deno.readTextFile(new URL(".ci/deploy-deno-version", ROOT))).trim();
  const prefix = new URL(`node_modules/.cache/deploy-deno-${version}/`, ROOT).pathname;
  const bin = `${prefix}node_modules/.bin/deno`;
  try {
    await Deno.stat(bin);
    return bin;
  } catch {
    // not installed yet
  }
  await Deno.mkdir(prefix, { recursive: true });
  await Deno.writeTextFile(`${prefix}package.json`, '{"private":true}\n');
  console.log(`Installing deno ${version} (Deno Deploy's runtime) from npm into ${prefix}`);
  const { code } = await new Deno.Command("npm", {
    args: [
      "install",
      "--prefix",
      prefix,
      "--no-save",
      "--no-audit",
      "--no-fund",
      `deno@${version}`,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`npm could not install deno@${version} (exit ${code})`);
  return bin;
}
