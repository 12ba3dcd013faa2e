/**
 * `deno task db:restore [file] [--force]`: loads a JSON-lines dump (from the file, or stdin) into
 * the store at DENO_KV_PATH (default ./data/app.kv). Refuses a non-empty store without --force.
 */
import { restoreKv } from "@/lib/store/dump.ts";

const kvPath = Deno.env.get("DENO_KV_PATH") ?? "./data/app.kv";
const force = Deno.args.includes("--force");
const source = Deno.args.find((arg) => arg !== "--force");

/** The lines of a byte stream, split on \n. */
async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const bytes of stream) {
    buffered += decoder.decode(bytes, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    yield* lines;
  }
  buffered += decoder.decode();
  if (buffered) yield buffered;
}

if (kvPath !== ":memory:" && kvPath.includes("/")) {
  await Deno.mkdir(kvPath.slice(0, kvPath.lastIndexOf("/")), { recursive: true });
}
const kv = await Deno.openKv(kvPath);
const input = source ? (await Deno.open(source)).readable : Deno.stdin.readable;
try {
  const count = await restoreKv(kv, linesOf(input), { force });
  console.error(`Restored ${count} entries into ${kvPath}.`);
} catch (err) {
  console.error((err as Error).message);
  Deno.exitCode = 1;
} finally {
  kv.close();
}
