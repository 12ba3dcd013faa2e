import assert from "node:assert/strict";
import {
  clearRateLimit,
  commitWithHits,
  hitRateLimit,
  hitRateLimits,
  prepareHits,
  type RateLimit,
  undoHits,
} from "@/lib/db/rate_limits.ts";

const LIMIT: Omit<RateLimit, "client"> = { bucket: "test_email", limit: 5, windowMs: 600_000 };
const T0 = Date.UTC(2030, 0, 1, 12);

async function withKv(fn: (kv: Deno.Kv) => Promise<void>) {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

Deno.test("[rate limits] five hits per window, then a refusal saying when to come back", async (t) => {
  await withKv(async (kv) => {
    const hit = (client: string, now: number) => hitRateLimit(kv, { ...LIMIT, client }, now);
    await t.step("the first five are allowed, counting down", async () => {
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(await hit("203.0.113.7", T0 + i * 60_000), {
          allowed: true,
          remaining: 4 - i,
        });
      }
    });
    await t.step("the sixth is refused until the first hit leaves the window", async () => {
      assert.deepEqual(await hit("203.0.113.7", T0 + 5 * 60_000), {
        allowed: false,
        retryAfterSeconds: 300,
      });
      assert.deepEqual(await hit("203.0.113.7", T0 + 600_000 - 1), {
        allowed: false,
        retryAfterSeconds: 1,
      });
    });
    await t.step("a refusal is not counted: one slot opens as the oldest hit expires", async () => {
      assert.equal((await hit("203.0.113.7", T0 + 600_000)).allowed, true);
      assert.equal((await hit("203.0.113.7", T0 + 600_001)).allowed, false);
    });
    await t.step("other clients and other buckets have their own count", async () => {
      assert.equal((await hit("198.51.100.1", T0 + 5 * 60_000)).allowed, true);
      const other = { ...LIMIT, bucket: "other", client: "203.0.113.7" };
      assert.equal((await hitRateLimit(kv, other, T0 + 5 * 60_000)).allowed, true);
    });
    await t.step("a client text too long for a key still gets limited", async () => {
      const long = "x".repeat(5000);
      for (let i = 0; i < 5; i++) assert.equal((await hit(long, T0)).allowed, true);
      assert.equal((await hit(long, T0)).allowed, false);
    });
  });
});

Deno.test("[rate limits] parallel hits never slip past the limit", async () => {
  await withKv(async (kv) => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => hitRateLimit(kv, { ...LIMIT, client: "203.0.113.9" }, T0)),
    );
    assert.equal(results.filter((r) => r.allowed).length, 5);
  });
});

Deno.test("[rate limits] several limits are hit together or not at all, and hits can be taken back", async (t) => {
  await withKv(async (kv) => {
    const pair = { bucket: "pair", client: "a", limit: 2, windowMs: 600_000 };
    const wide = { bucket: "wide", client: "all", limit: 3, windowMs: 600_000 };
    await t.step("a full limit refuses and names itself; the others count nothing", async () => {
      assert.equal((await hitRateLimits(kv, [pair, wide], T0)).allowed, true);
      assert.equal((await hitRateLimits(kv, [pair, wide], T0 + 1)).allowed, true);
      const refused = await hitRateLimits(kv, [pair, wide], T0 + 2);
      assert.deepEqual(refused, { allowed: false, bucket: "pair", retryAfterSeconds: 600 });
      const other = { ...pair, client: "b" };
      assert.equal((await hitRateLimits(kv, [other, wide], T0 + 3)).allowed, true);
      assert.deepEqual(await hitRateLimits(kv, [other, wide], T0 + 4), {
        allowed: false,
        bucket: "wide",
        retryAfterSeconds: 600,
      });
    });
    await t.step("undoHits takes back exactly the hits of one call", async () => {
      const other = { ...pair, client: "b" };
      await undoHits(kv, [other, wide], T0 + 3);
      const again = await hitRateLimits(kv, [{ ...pair, client: "c" }, wide], T0 + 5);
      assert.equal(again.allowed, true);
    });
    await t.step("clearRateLimit forgets one client's hits", async () => {
      await clearRateLimit(kv, pair);
      assert.equal((await hitRateLimit(kv, pair, T0 + 6)).allowed, true);
    });
  });
});

Deno.test("[rate limits] a ceiling counts a crowd in slots and says when room comes back", async () => {
  await withKv(async (kv) => {
    const ceiling = { bucket: "crowd", client: "198.51.100.1", limit: 1_000, windowMs: 600_000 };
    // 1,000 hits over 100 s fit a record of ten slots, whatever the count.
    for (let i = 0; i < 1_000; i++) {
      const now = T0 + i * 100;
      const prepared = await prepareHits(kv, [], [ceiling], { now, consistency: "strong" });
      assert.equal(prepared.allowed, true, `hit ${i}`);
      await commitWithHits(kv, [], [ceiling], prepared);
    }
    const record =
      (await kv.get<{ slots: [number, number][] }>(["rate_limits", "crowd", ceiling.client]))
        .value!;
    assert.equal(record.slots.length, 10);
    assert.equal(record.slots.reduce((sum, [, n]) => sum + n, 0), 1_000);
    const full = await prepareHits(kv, [], [ceiling], { now: T0 + 100_000, consistency: "strong" });
    assert.equal(full.allowed, false);
    // The oldest slot (T0) leaves the window at T0 + 600 s.
    assert.equal(!full.allowed && full.retryAfterSeconds, 500);
    const later = await prepareHits(kv, [], [ceiling], {
      now: T0 + 600_001,
      consistency: "strong",
    });
    assert.equal(later.allowed, true);
  });
});

Deno.test("[rate limits] a log prepared before is counted once, checked against its record", async () => {
  await withKv(async (kv) => {
    const limit = { ...LIMIT, client: "solo@example.com" };
    const first = await prepareHits(kv, [limit], [], { now: T0 });
    const second = await prepareHits(kv, [limit], [], { now: T0 });
    await commitWithHits(kv, [limit], [], first);
    // The second was prepared from the same (now stale) record: counted again on fresh reads.
    await commitWithHits(kv, [limit], [], second);
    const record = (await kv.get<{ hits: number[] }>(["rate_limits", "test_email", limit.client]))
      .value!;
    assert.equal(record.hits.length, 2);
  });
});
