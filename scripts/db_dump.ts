/**
 * `deno task db:dump [file]`: writes every entry of the store at DENO_KV_PATH (default
 * ./data/app.kv) as JSON lines to the file, or to stdout when no file is given.
 */
import { dumpKv } from "@/lib/store/dump.ts";

const kvPath = Deno.env.get("DENO_KV_PATH") ?? "./data/app.kv";
const target = Deno.args[0];

const kv = await Deno.openKv(kvPath);
const encoder = new TextEncoder();
const file = target ? await Deno.open(target, { write: true, create: true, truncate: true }) : null;
const writer = (file?.writable ?? Deno.stdout.writable).getWriter();
let count = 0;
try {
  for await (const line of dumpKv(kv)) {
    await writer.write(encoder.encode(line + "\n"));
    count++;
  }
} finally {
  await writer.close();
  kv.close();
}
console.error(`Dumped ${count} entries from ${kvPath}${target ? ` to ${target}` : ""}.`);
