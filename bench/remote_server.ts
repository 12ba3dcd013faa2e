/**
 * The app as one process of `deno task bench remote` serves it: the real start-up (lib/app.ts)
 * over a store that adds BENCH_KV_LATENCY_MS to every KV round trip (tests/helpers/latency_kv.ts),
 * with each answer telling how many round trips it cost
 * (`x-kv-round-trips: total/sequential/conflicts/strong`, strong: sequential ones to the primary,
 * meaningful when requests come one at a time; `/_bench/round-trips` gives the totals). Prints
 * one JSON line when it listens.
 */
import manifest from "@/fresh.gen.ts";
import freshConfig from "@/fresh.config.ts";
import { createApp } from "@/lib/app.ts";
import { RoundTrips, withLatency } from "@/tests/helpers/latency_kv.ts";

const started = performance.now();
const latencyMs = Number(Deno.env.get("BENCH_KV_LATENCY_MS") ?? 0);
const counter = new RoundTrips();
const app = await createApp(manifest, freshConfig, {
  wrapKv: (kv) => withLatency(kv, latencyMs, counter),
});
Deno.serve({
  hostname: app.config.host,
  port: app.config.port,
  onListen: () => {
    const ms = Math.round(performance.now() - started);
    console.log(JSON.stringify({ msg: "listening", port: app.config.port, setupMs: ms }));
  },
}, async (req, info) => {
  if (new URL(req.url).pathname === "/_bench/round-trips") return Response.json(counter.snapshot());
  const before = counter.snapshot();
  const res = await app.handler(req, info);
  const body = res.body ? new Uint8Array(await res.arrayBuffer()) : null;
  const after = counter.snapshot();
  const headers = new Headers(res.headers);
  headers.set("x-since-start-ms", String(Math.round(performance.now()))); // since process start
  headers.set(
    "x-kv-round-trips",
    `${after.total - before.total}/${after.sequential - before.sequential}/${
      after.conflicts - before.conflicts
    }/${after.strong - before.strong}`,
  );
  return new Response(body, { status: res.status, headers });
});
app.startBackground();
