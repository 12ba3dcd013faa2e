/**
 * Page throughput of the server as `npm start` runs it (one isolate per core on a KV file with the
 * demo data): 16 keep-alive clients fetch `/` (brotli) for `SERVE_BENCH_S` (8) seconds after a
 * warm-up; prints req/s and writes .bench-out/serve.json. Run: `deno task bench serve`.
 * The clients share the machine's cores with the server, so compare runs made back to back.
 */
import { startServer } from "@/tests/helpers/server.ts";

const SECONDS = Number(Deno.env.get("SERVE_BENCH_S") ?? 8);
const CLIENTS = 16;
const OUT = new URL("../.bench-out/serve.json", import.meta.url);

const kvDir = await Deno.makeTempDir();
const server = await startServer({ env: { DENO_KV_PATH: `${kvDir}/app.kv` } });
const url = `${server.url}/`;
const get = async () => {
  const res = await fetch(url, { headers: { "accept-encoding": "br" } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET / answered ${res.status}`);
};
try {
  for (let i = 0; i < 50; i++) await get();
  let done = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (Date.now() < end) (await get(), done++);
  }));
  const result = {
    clients: CLIENTS,
    seconds: SECONDS,
    requestsPerSecond: Math.round(done / SECONDS),
    loadAverage: Deno.loadavg().map((n) => +n.toFixed(2)),
  };
  console.log(`serve: GET / ${result.requestsPerSecond} req/s (${CLIENTS} clients, ${SECONDS} s)`);
  await Deno.mkdir(new URL("./", OUT), { recursive: true });
  await Deno.writeTextFile(OUT, JSON.stringify(result, null, 2) + "\n");
} finally {
  await server.stop();
  await Deno.remove(kvDir, { recursive: true });
}
