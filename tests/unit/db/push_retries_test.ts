/**
 * The kept pushes in due-time order: a run reads the due ones and the time of the next, never
 * every kept push; the order moves with each record in the same atomic, and a store from before
 * the order gets it from a migration.
 */
import assert from "node:assert/strict";
import {
  advancePushRetry,
  listDuePushRetries,
  listPushRetries,
  migratePushRetryOrder,
  nextPushRetryAt,
  type PushRetry,
  removePushRetry,
  schedulePushRetry,
} from "@/lib/db/push_retries.ts";
import { keys } from "@/lib/store/keys.ts";

const T = Date.UTC(2026, 10, 27, 12);

function retry(entryId: number, nextAt: number, eventId = 7): PushRetry {
  return {
    competitionId: 3,
    entryId,
    kind: "scored",
    eventId,
    message: {
      title: "Your pick scored",
      body: "Goal",
      url: "/leaderboard/3",
      tag: `scored-${eventId}`,
    },
    attempts: 1,
    nextAt,
    expiresAt: T + 3_600_000,
    lastError: "503",
  };
}

/** The places in due-time order, as [nextAt, entryId]. */
async function order(kv: Deno.Kv): Promise<[number, number][]> {
  const out: [number, number][] = [];
  for await (const e of kv.list({ prefix: keys.pushRetriesDue() })) {
    out.push([Number(e.key[1]), Number(e.key[3])]);
  }
  return out;
}

const entryIds = (list: Deno.KvEntry<PushRetry>[]) => list.map((r) => r.value.entryId);

Deno.test("[push retries] the due ones soonest first, the next time, and the order moving with each record", async (t) => {
  const kv = await Deno.openKv(":memory:");
  try {
    for (const [entryId, at] of [[1, T + 30_000], [2, T + 1_000], [3, T + 600_000]]) {
      assert.equal(await schedulePushRetry(kv, retry(entryId, at)), true);
    }

    await t.step("due at a time: only those, soonest first, at most the limit", async () => {
      assert.deepEqual(entryIds(await listDuePushRetries(kv, T, 10)), []);
      assert.deepEqual(
        entryIds(await listDuePushRetries(kv, T + 1_000, 10)),
        [2],
        "due at its time",
      );
      assert.deepEqual(entryIds(await listDuePushRetries(kv, T + 60_000, 10)), [2, 1]);
      assert.deepEqual(entryIds(await listDuePushRetries(kv, T + 60_000, 1)), [2]);
      assert.equal(await nextPushRetryAt(kv), T + 1_000);
    });

    await t.step("advancing a record moves its place; the old one goes", async () => {
      const [kept] = await listDuePushRetries(kv, T + 1_000, 10);
      const next = { ...kept.value, attempts: 2, nextAt: T + 120_000 };
      assert.equal(await advancePushRetry(kv, kept, next), true);
      assert.deepEqual(await order(kv), [[T + 30_000, 1], [T + 120_000, 2], [T + 600_000, 3]]);
      assert.equal(await nextPushRetryAt(kv), T + 30_000);
      assert.equal(await advancePushRetry(kv, kept, next), false, "a stale copy writes nothing");
      assert.equal((await order(kv)).length, 3);
    });

    await t.step("a push that supersedes a kept one takes its record and its place", async () => {
      const amended = { ...retry(3, T + 45_000, 8), message: retry(3, 0).message };
      assert.equal(await schedulePushRetry(kv, amended), true);
      assert.deepEqual(await order(kv), [[T + 30_000, 1], [T + 45_000, 3], [T + 120_000, 2]]);
      assert.equal(await schedulePushRetry(kv, retry(1, T + 5_000)), false, "a repeat is not kept");
      assert.deepEqual((await order(kv))[0], [T + 30_000, 1]);
    });

    await t.step("removing a record removes its place", async () => {
      for (const kept of await listPushRetries(kv)) {
        assert.equal(await removePushRetry(kv, kept), true);
      }
      assert.deepEqual(await order(kv), []);
      assert.equal(await nextPushRetryAt(kv), null);
      assert.deepEqual(await listDuePushRetries(kv, T + 3_600_000, 10), []);
    });
  } finally {
    kv.close();
  }
});

Deno.test("[push retries] a store from before the order: the migration places each record once; stray places are cleared", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // Records as the code before the order wrote them: the record alone.
    for (const [entryId, at] of [[4, T + 2_000], [5, T + 1_000]]) {
      const r = retry(entryId, at);
      await kv.set(keys.pushRetry(r.competitionId, r.entryId, r.message.tag), r);
    }
    assert.equal(await nextPushRetryAt(kv), null, "not in the order yet");
    assert.equal(await migratePushRetryOrder(kv), 2);
    assert.equal(await migratePushRetryOrder(kv), 2, "a second run writes the same places");
    assert.deepEqual(await order(kv), [[T + 1_000, 5], [T + 2_000, 4]]);
    assert.deepEqual(entryIds(await listDuePushRetries(kv, T + 2_000, 10)), [5, 4]);

    // A place whose record moved or went (no code of today leaves one) is cleared when read.
    await kv.set(keys.pushRetryDue(T + 500, 3, 4, "scored-7"), true);
    await kv.set(keys.pushRetryDue(T + 600, 3, 9, "scored-7"), true);
    assert.deepEqual(entryIds(await listDuePushRetries(kv, T + 2_000, 10)), [5, 4]);
    assert.deepEqual(await order(kv), [[T + 1_000, 5], [T + 2_000, 4]]);
  } finally {
    kv.close();
  }
});
