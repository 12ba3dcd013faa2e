/**
 * Pushes tried again: a push the (local) push service refuses for now (503, 429) is kept and sent
 * by a later run of the "notifications" job, once; a 429's Retry-After is honoured; a 400 is not
 * tried again; a push past its TTL, or for an entry that revoked push or was refunded, is dropped;
 * a final-standings push that failed goes on a later run although the competition is done.
 */
import assert from "node:assert/strict";
import { changeGameEvents, createGameEvent, deleteGameEvent } from "@/lib/db/events.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { claimEntryRefundByAdmin } from "@/lib/db/entry_refund_decisions.ts";
import { getNotifyPrefs, notifyDone } from "@/lib/db/notifications.ts";
import { listPushRetries } from "@/lib/db/push_retries.ts";
import { resumeAwards } from "@/lib/db/standings.ts";
import { keys } from "@/lib/store/keys.ts";
import type { Entry } from "@/lib/domain/types.ts";
import { drainPushQueue, runNotifications, startPushDrainer } from "@/lib/notify/run.ts";
import { planRetry, RETRY_BACKOFF_MS, retryAfterMs } from "@/lib/notify/retry.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeCompetition,
  makeEntry,
  payTestIntent,
  startMatch,
  type TestCompetition,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import {
  LOCAL_PUSH,
  startTestPushService,
  subscribeEntry,
  type TestBrowser,
  type TestPushService,
} from "@/tests/helpers/push_service.ts";

interface Setup {
  app: TestApp;
  push: TestPushService;
  c: TestCompetition;
  scorer: number;
  /** Each entry's browser, subscribed to both pushes. */
  browsers: Map<number, TestBrowser>;
}

/** A live competition and `count` entries holding the scorer, each subscribed to both pushes. */
async function setUp(count: number): Promise<Setup & { entries: Entry[] }> {
  const push = startTestPushService();
  const app = await makeTestApp({ config: LOCAL_PUSH });
  const c = await makeCompetition(app.kv);
  const entries = [];
  for (let i = 0; i < count; i++) entries.push(await makeEntry(app.kv, c));
  const browsers = new Map<number, TestBrowser>();
  for (const e of entries) await subscribe(app, push, e, browsers);
  await startMatch(app.kv, c);
  return { app, push, c, scorer: validPicks(c)[4], browsers, entries };
}

async function subscribe(
  app: TestApp,
  push: TestPushService,
  e: Entry,
  browsers: Map<number, TestBrowser>,
) {
  browsers.set(e.id, (await subscribeEntry(app, push, e.editToken!)).browser);
}

function settings(app: TestApp, token: string, json: unknown) {
  return app.request(`/api/notifications/${token}`, { method: "PUT", json });
}

/**
 * The kept pushes, after checking that each has its one place in due-time order and no place is
 * left without its push (the drainer reads that order).
 */
async function keptPushes(kv: Deno.Kv) {
  const kept = await listPushRetries(kv);
  const places = [];
  for await (const e of kv.list({ prefix: keys.pushRetriesDue() })) places.push(e.key);
  const expected = kept.map(({ value: r }) =>
    keys.pushRetryDue(r.nextAt, r.competitionId, r.entryId, r.message.tag)
  );
  const order = (a: Deno.KvKey, b: Deno.KvKey) =>
    JSON.stringify(a).localeCompare(JSON.stringify(b));
  assert.deepEqual(places.sort(order), expected.sort(order), "one place per kept push");
  return kept;
}

async function tearDown(s: Setup) {
  await s.app.close();
  await s.push.close();
}

/** The job's run as if `ms` had passed. */
const runAfter = (s: Setup, ms: number) =>
  runNotifications(s.app.services, TEST_ORIGIN, new Date(Date.now() + ms));

const answersTo = (s: Setup, browser: TestBrowser) =>
  s.push.answers.filter((a) => a.browserId === browser.id).map((a) => a.status);

const receivedBy = (s: Setup, browser: TestBrowser) =>
  s.push.received.filter((r) => r.browserId === browser.id);

/** A GOAL by the scorer, drained at once; the event. */
async function goal(s: Setup, minute: number) {
  const event = await createGameEvent(s.app.kv, s.c.id, {
    playerId: s.scorer,
    eventType: "GOAL",
    minute,
  });
  await drainPushQueue(s.app.services);
  return event;
}

Deno.test("[push retry] a 503 once: kept, then delivered exactly once by a later job run", async () => {
  const s = await setUp(2);
  try {
    const [refusing, fine] = s.entries.map((e) => s.browsers.get(e.id)!);
    s.push.answer(refusing.id, 503, { times: 1 });
    await goal(s, 12);
    assert.deepEqual(answersTo(s, refusing), [503]);
    assert.equal(receivedBy(s, fine).length, 1, "the other browser got it at once");
    const [kept] = await keptPushes(s.app.kv);
    assert.equal(kept.value.attempts, 1);
    assert.equal(kept.value.kind, "scored");
    assert.match(kept.value.message.tag, /^scored-\d+$/);
    const wait = kept.value.nextAt - Date.now();
    assert.ok(wait > 25_000 && wait <= RETRY_BACKOFF_MS[0], `first retry in ~30 s, got ${wait}`);

    const early = await runAfter(s, 10_000);
    assert.equal(early.pushes, 0, "not before its time");
    assert.deepEqual(answersTo(s, refusing), [503]);

    const due = await runAfter(s, 31_000);
    assert.equal(due.pushes, 1);
    assert.deepEqual(answersTo(s, refusing), [503, 201]);
    const [got] = receivedBy(s, refusing);
    assert.equal((got.payload as { title: string }).title, "Your pick scored");
    assert.equal((got.payload as { tag: string }).tag, kept.value.message.tag);
    assert.deepEqual(Object.keys(got.payload as object).sort(), ["body", "tag", "title", "url"]);
    assert.ok(got.ttl > 3_500 && got.ttl <= 3_570, `what is left of the hour, got ${got.ttl}`);
    assert.equal(receivedBy(s, fine)[0].ttl, 3_600);
    assert.deepEqual(await keptPushes(s.app.kv), [], "the record went with the send");

    await runAfter(s, 200_000);
    await drainPushQueue(s.app.services);
    assert.equal(receivedBy(s, refusing).length, 1, "exactly once");
    assert.equal(receivedBy(s, fine).length, 1);
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] a 429's Retry-After is honoured", async () => {
  const s = await setUp(1);
  try {
    const browser = s.browsers.get(s.entries[0].id)!;
    s.push.answer(browser.id, 429, { times: 1, retryAfter: "300" });
    await goal(s, 20);
    const [kept] = await listPushRetries(s.app.kv);
    const wait = kept.value.nextAt - Date.now();
    assert.ok(wait > 295_000 && wait <= 300_000, `Retry-After 300 s, got ${wait}`);
    await runAfter(s, 31_000);
    await runAfter(s, 150_000);
    assert.deepEqual(answersTo(s, browser), [429], "not before the service said");
    await runAfter(s, 301_000);
    assert.deepEqual(answersTo(s, browser), [429, 201]);
    assert.deepEqual(await listPushRetries(s.app.kv), []);
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] no answer (the push service is down) is kept and tried again like a 5xx", async () => {
  const s = await setUp(1);
  const down = startTestPushService();
  try {
    // The browser moved to a push service that then went down.
    await subscribe(s.app, down, s.entries[0], s.browsers);
    await down.close(); // its port now refuses connections
    await createGameEvent(s.app.kv, s.c.id, { playerId: s.scorer, eventType: "GOAL", minute: 25 });
    const first = await runNotifications(s.app.services, TEST_ORIGIN);
    assert.equal(first.retrying, 1);
    const [kept] = await listPushRetries(s.app.kv);
    assert.equal(kept.value.attempts, 1);
    assert.doesNotMatch(kept.value.lastError, /^\d+$/, "a network error, not a status");
    const again = await runAfter(s, 31_000);
    assert.equal(again.failed, 1);
    const [next] = await listPushRetries(s.app.kv);
    assert.equal(next.value.attempts, 2, "tried again, kept for its third try");
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] the isolate's drainer sends a kept push when it is due", async () => {
  const s = await setUp(1);
  const drainer = startPushDrainer(s.app.services);
  try {
    const browser = s.browsers.get(s.entries[0].id)!;
    s.push.answer(browser.id, 503, { times: 1, retryAfter: "1" });
    // The event's write wakes the drainer: the first send is refused, then it waits a second.
    await createGameEvent(s.app.kv, s.c.id, { playerId: s.scorer, eventType: "GOAL", minute: 5 });
    const until = Date.now() + 10_000;
    while (receivedBy(s, browser).length === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(answersTo(s, browser), [503, 201]);
    assert.deepEqual(await listPushRetries(s.app.kv), []);
  } finally {
    await drainer.stop();
    await tearDown(s);
  }
});

Deno.test("[push retry] a 400 is not tried again", async () => {
  const s = await setUp(1);
  try {
    const browser = s.browsers.get(s.entries[0].id)!;
    s.push.answer(browser.id, 400, { times: 1 });
    await goal(s, 30);
    assert.deepEqual(await listPushRetries(s.app.kv), []);
    for (const ms of [31_000, 150_000, 800_000]) await runAfter(s, ms);
    assert.deepEqual(answersTo(s, browser), [400]);
    assert.ok((await getNotifyPrefs(s.app.kv, s.entries[0])).push, "the subscription stays");
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] 503 every time: four tries, then given up; a retry past the TTL is dropped", async (t) => {
  const s = await setUp(2);
  try {
    const [always, late] = s.entries.map((e) => s.browsers.get(e.id)!);
    s.push.answer(always.id, 503);
    s.push.answer(late.id, 503);
    await goal(s, 40);
    assert.equal((await listPushRetries(s.app.kv)).length, 2);

    await t.step("30 s, 2 min, 10 min later, then no more", async () => {
      let at = 0;
      for (const wait of RETRY_BACKOFF_MS) {
        at += wait + 1_000;
        await runAfter(s, at);
        assert.equal((await keptPushes(s.app.kv)).length, wait === 600_000 ? 0 : 2);
      }
      assert.deepEqual(answersTo(s, always), [503, 503, 503, 503]);
      await runAfter(s, at + 60_000);
      assert.deepEqual(answersTo(s, always), [503, 503, 503, 503]);
      assert.deepEqual(await listPushRetries(s.app.kv), []);
    });

    await t.step("a retry whose time comes after the TTL is dropped, not sent", async () => {
      // A second goal, kept for both; the job's next run is only after the hour.
      await goal(s, 50);
      assert.equal((await listPushRetries(s.app.kv)).length, 2);
      const report = await runAfter(s, 3_601_000);
      assert.equal(report.dropped, 2);
      assert.equal(report.pushes + report.failed, 0, "nothing sent");
      assert.deepEqual(await listPushRetries(s.app.kv), []);
      assert.equal(answersTo(s, late).length, 4 + 1);
    });
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] a final-standings push that failed goes on the next job run, once", async () => {
  const s = await setUp(2);
  try {
    const [refusing, fine] = s.entries.map((e) => s.browsers.get(e.id)!);
    s.push.answer(refusing.id, 502, { times: 1 });
    await updateCompetition(s.app.kv, s.c.id, { status: "COMPLETED" });
    await resumeAwards(s.app.kv);
    const first = await runNotifications(s.app.services, TEST_ORIGIN);
    assert.equal(first.finals, 1);
    assert.equal(first.retrying, 1);
    assert.ok(await notifyDone(s.app.kv, "result", s.c.id), "the competition's run is done");
    assert.equal((await getNotifyPrefs(s.app.kv, s.entries[0])).finalPushedAt, undefined);

    const again = await runAfter(s, 31_000);
    assert.equal(again.finals, 1);
    const finals = receivedBy(s, refusing);
    assert.equal(finals.length, 1);
    assert.match((finals[0].payload as { title: string }).title, /^Final standings: /);
    assert.equal((finals[0].payload as { tag: string }).tag, `final-${s.c.id}`);
    assert.ok((await getNotifyPrefs(s.app.kv, s.entries[0])).finalPushedAt, "recorded pushed");
    assert.deepEqual(await listPushRetries(s.app.kv), []);

    await runAfter(s, 700_000);
    assert.equal(receivedBy(s, refusing).length, 1);
    assert.equal(receivedBy(s, fine).length, 1);
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] a kept push is dropped when its entry revoked push, opted out or was refunded", async () => {
  const push = startTestPushService();
  const app = await makeTestApp({ config: LOCAL_PUSH });
  try {
    const c = await makeCompetition(app.kv);
    // One entry through checkout (a settled payment, so an admin may refund it).
    const paymentId = await payTestIntent(app, c.id);
    const res = await app.request("/api/entries", {
      method: "POST",
      json: entryBody(c, paymentId),
    });
    assert.equal(res.status, 201);
    const paid = (await readJsonBody(res)) as Entry;
    const entries = [paid, await makeEntry(app.kv, c), await makeEntry(app.kv, c)];
    const s: Setup = { app, push, c, scorer: validPicks(c)[4], browsers: new Map() };
    for (const e of entries) await subscribe(app, push, e, s.browsers);
    await startMatch(app.kv, c);
    for (const b of s.browsers.values()) push.answer(b.id, 503, { times: 1 });
    await goal(s, 60);
    assert.equal((await listPushRetries(app.kv)).length, 3);

    await claimEntryRefundByAdmin(app.kv, c.id, paid.teamId, "Paid twice", { admin: "admin" });
    const revoked = await settings(app, entries[1].editToken!, { push: null });
    assert.equal(revoked.status, 200);
    await revoked.body?.cancel();
    const optedOut = await settings(app, entries[2].editToken!, { pushScored: false });
    assert.equal(optedOut.status, 200);
    await optedOut.body?.cancel();

    const report = await runAfter(s, 31_000);
    assert.equal(report.dropped, 3);
    assert.deepEqual(await keptPushes(app.kv), [], "dropped with their places");
    assert.equal(report.pushes, 0);
    assert.deepEqual(push.received, []);
    assert.deepEqual(push.answers.map((a) => a.status), [503, 503, 503]);
    assert.deepEqual(await listPushRetries(app.kv), []);
  } finally {
    await app.close();
    await push.close();
  }
});

Deno.test("[push retry] which failures are tried again, and when", () => {
  const now = Date.parse("2026-11-27T12:00:00Z");
  const ttl = now + 3_600_000;
  assert.deepEqual(planRetry({ failed: 503 }, 1, now, ttl), { at: now + 30_000 });
  assert.deepEqual(planRetry({ failed: 500 }, 2, now, ttl), { at: now + 120_000 });
  assert.deepEqual(planRetry({ failed: "timed out", network: true }, 3, now, ttl), {
    at: now + 600_000,
  });
  assert.ok("drop" in planRetry({ failed: 503 }, 4, now, ttl), "four tries at most");
  for (const status of [400, 401, 403, 413]) {
    assert.ok("drop" in planRetry({ failed: status }, 1, now, ttl), `${status} is permanent`);
  }
  assert.ok("drop" in planRetry({ failed: "bad keys" }, 1, now, ttl), "unusable keys");
  assert.deepEqual(planRetry({ failed: 429, retryAfter: "90" }, 1, now, ttl), {
    at: now + 90_000,
  });
  assert.deepEqual(
    planRetry({ failed: 503, retryAfter: "Fri, 27 Nov 2026 12:05:00 GMT" }, 1, now, ttl),
    { at: now + 300_000 },
  );
  assert.deepEqual(planRetry({ failed: 500, retryAfter: "90" }, 1, now, ttl), {
    at: now + 30_000,
  }, "Retry-After is read on 429 and 503");
  assert.equal(retryAfterMs("86400", now), 20 * 60_000, "bounded");
  assert.equal(retryAfterMs("soon", now), null);
  assert.ok("drop" in planRetry({ failed: 503 }, 1, now, now + 20_000), "past the TTL");
});

Deno.test("[push retry] a GOAL kept for a retry, then removed: the retry is dropped, the Correction goes", async () => {
  const s = await setUp(2);
  try {
    const [refusing, fine] = s.entries.map((e) => s.browsers.get(e.id)!);
    s.push.answer(refusing.id, 503, { times: 1 });
    const scored = await goal(s, 12);
    const [kept] = await listPushRetries(s.app.kv);
    assert.equal(kept.value.message.tag, `scored-${scored.id}`);

    await deleteGameEvent(s.app.kv, s.c.id, scored.id);
    await drainPushQueue(s.app.services);
    const titles = (b: TestBrowser) =>
      receivedBy(s, b).map((r) => (r.payload as { title: string; tag: string }));
    assert.deepEqual(titles(fine).map((p) => p.title), ["Your pick scored", "Correction"]);
    assert.deepEqual(titles(refusing).map((p) => p.title), ["Correction"]);
    assert.equal(titles(refusing)[0].tag, kept.value.message.tag);

    const due = await runAfter(s, 31_000);
    assert.equal(due.dropped, 1, "the scored push of a removed event is not retried");
    assert.equal(due.pushes, 0);
    assert.deepEqual(await listPushRetries(s.app.kv), []);
    assert.deepEqual(titles(refusing).map((p) => p.title), ["Correction"]);
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] a Correction refused for now replaces the kept push of its event and goes later", async () => {
  const s = await setUp(1);
  try {
    const browser = s.browsers.get(s.entries[0].id)!;
    s.push.answer(browser.id, 503, { times: 2 });
    const scored = await goal(s, 12);
    await deleteGameEvent(s.app.kv, s.c.id, scored.id);
    await drainPushQueue(s.app.services);
    assert.deepEqual(answersTo(s, browser), [503, 503]);
    const [kept, ...more] = await listPushRetries(s.app.kv);
    assert.deepEqual(more, []);
    assert.equal(kept.value.removed, true);
    assert.equal(kept.value.message.title, "Correction");
    assert.equal(kept.value.message.tag, `scored-${scored.id}`);

    const due = await runAfter(s, 31_000);
    assert.equal(due.pushes, 1);
    const got = receivedBy(s, browser).map((r) => r.payload as { title: string; tag: string });
    assert.deepEqual(got.map((p) => p.title), ["Correction"]);
    assert.equal(got[0].tag, `scored-${scored.id}`);
    assert.deepEqual(await listPushRetries(s.app.kv), []);
  } finally {
    await tearDown(s);
  }
});

Deno.test("[push retry] an amendment refused for now replaces the kept push of the event it amends, and goes under its tag", async () => {
  const s = await setUp(1);
  try {
    const browser = s.browsers.get(s.entries[0].id)!;
    s.push.answer(browser.id, 503, { times: 2 });
    const scored = await goal(s, 12);
    // What the feed does with a new version of the goal (its minute corrected): one atomic.
    const { added } = await changeGameEvents(s.app.kv, s.c.id, {
      remove: scored.id,
      add: { playerId: s.scorer, eventType: "GOAL", minute: 13 },
    });
    await drainPushQueue(s.app.services);
    assert.deepEqual(answersTo(s, browser), [503, 503]);
    const [kept, ...more] = await listPushRetries(s.app.kv);
    assert.deepEqual(more, [], "one record: the amendment's push replaced the first one's");
    assert.equal(kept.value.eventId, added!.id);
    assert.equal(kept.value.message.tag, `scored-${scored.id}`);

    const due = await runAfter(s, 31_000);
    assert.equal(due.dropped, 0, "the amended goal still stands");
    assert.equal(due.pushes, 1);
    const got = receivedBy(s, browser).map((r) => r.payload as { title: string; tag: string });
    assert.deepEqual(got.map((p) => [p.title, p.tag]), [[
      "Your pick scored",
      `scored-${scored.id}`,
    ]]);
    assert.deepEqual(await listPushRetries(s.app.kv), []);
  } finally {
    await tearDown(s);
  }
});
