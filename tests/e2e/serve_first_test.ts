/**
 * Serve first: with 90 ms per KV round trip (a far-away store, bench/remote_server.ts), the
 * server answers before its start-up work (lease, migrations, seed check, admin) is done, and a
 * start on a store that was started before makes a few round trips, none of them a scan.
 */
import assert from "node:assert/strict";
import { buildIfStale } from "@/scripts/build_if_stale.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";
import { freePort } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const ROOT = new URL("../../", import.meta.url);

interface Started {
  /** `/healthz` answered 200 this long after the process started (the server's clock). */
  healthyAfterMs: number;
  /** `/readyz` answered 503 (start-up work still running) at least once after that. */
  sawStarting: boolean;
  /** The round trips of the start, by operation, once ready. */
  byOp: Record<string, number>;
}

async function startOnce(kvPath: string): Promise<Started> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "bench/remote_server.ts"],
    cwd: ROOT,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DENO_KV_PATH: kvPath,
      DEMO_DATA: "1",
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "serve-first-password",
      BENCH_KV_LATENCY_MS: "90",
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  try {
    let healthyAfterMs = -1;
    let sawStarting = false;
    await waitFor("the app ready", async () => {
      const health = await fetch(`${url}/healthz`).catch(() => null);
      await health?.body?.cancel();
      if (!health?.ok) return false;
      if (healthyAfterMs < 0) healthyAfterMs = Number(health.headers.get("x-since-start-ms"));
      const ready = await fetch(`${url}/readyz`);
      await ready.body?.cancel();
      if (!ready.ok) sawStarting = true;
      return ready.ok;
    }, { timeoutMs: 60_000, everyMs: 10 });
    const { byOp } = await fetch(`${url}/_bench/round-trips`).then((r) => r.json());
    return { healthyAfterMs, sawStarting, byOp };
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

Deno.test("[serve first] at 90 ms per round trip the server answers before its start-up work ends", async () => {
  const dir = await Deno.makeTempDir({ prefix: "serve-first-" });
  const kvPath = `${dir}/app.kv`;
  // As on Deploy (and after `npm start`'s build step): the bundles are built, not made at start.
  await buildIfStale();
  try {
    const kv = await Deno.openKv(kvPath);
    await seedDemoDataIfEmpty(kv);
    kv.close();

    const first = await startOnce(kvPath);
    assert.ok(first.sawStarting, "/healthz answered while /readyz still said starting");

    const again = await startOnce(kvPath);
    console.log(
      `healthy ${again.healthyAfterMs} ms after start; start-up round trips:`,
      again.byOp,
    );
    assert.ok(again.sawStarting);
    // How soon it answers is a bench figure (`deno task bench remote`, about 0.55 s on an idle
    // machine): a loaded test machine says nothing about it. What is asserted here is that it
    // answers before the start-up work ends, and how many round trips that work makes.
    // The start-up of a store started before: lease, markers, seed check, admin; no scans.
    const lists = again.byOp.list ?? 0;
    assert.ok(lists <= 2, `lists at start-up: ${JSON.stringify(again.byOp)}`);
    const total = Object.values(again.byOp).reduce((a, b) => a + b, 0);
    assert.ok(total <= 14, `round trips at start-up: ${JSON.stringify(again.byOp)}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
