/**
 * The measured store lists as the store does (its spans and metrics are checked against a
 * collector in tests/e2e/telemetry_test.ts): the same entries in order, a cursor that resumes
 * the listing, and a loop left early that ends cleanly.
 */
import assert from "node:assert/strict";
import { withKvTelemetry } from "@/lib/store/instrumented_kv.ts";

Deno.test("[instrumented kv] list: same entries, a working cursor, a loop left early", async () => {
  const raw = await Deno.openKv(":memory:");
  try {
    const kv = withKvTelemetry(raw);
    for (let i = 0; i < 5; i++) await kv.set(["n", i], i * 10);
    const all = await Array.fromAsync(kv.list<number>({ prefix: ["n"] }));
    assert.deepEqual(all.map((e) => e.value), [0, 10, 20, 30, 40]);

    const page = kv.list<number>({ prefix: ["n"] }, { limit: 2 });
    assert.deepEqual((await Array.fromAsync(page)).map((e) => e.value), [0, 10]);
    const rest = kv.list<number>({ prefix: ["n"] }, { cursor: page.cursor });
    assert.deepEqual((await Array.fromAsync(rest)).map((e) => e.value), [20, 30, 40]);

    const seen: number[] = [];
    for await (const entry of kv.list<number>({ prefix: ["n"] }, { reverse: true })) {
      seen.push(entry.value);
      if (seen.length === 2) break;
    }
    assert.deepEqual(seen, [40, 30]);
  } finally {
    raw.close();
  }
});
