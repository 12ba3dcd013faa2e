/**
 * The deadline rush across isolates and processes, against real servers on one KV
 * file: two app processes, and one `deno serve --parallel` server with two isolates, each take
 * 100 concurrent buyers into a competition of 40 places (exactly 40 entries; every other buyer
 * refused, before paying or refunded after, in whatever order the requests land); a kill -9 in
 * the middle of paid-entry load, then a restart, leaves no payment unresolved within 60 s (the
 * recovery sweep, no browser involved).
 */
import assert from "node:assert/strict";
import { getEntryByPayment, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { retryWhileBusy, withBusyRetry } from "@/lib/store/busy_retry.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import { getTestIntent } from "@/lib/db/test_payment_intents.ts";
import { makeCompetition, SUCCESS_CARD, validPicks } from "@/tests/helpers/fixtures.ts";
import { type RunningServer, startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const FULL = "This competition is full. Your payment has been refunded.";

interface Answer {
  status: number;
  body: { message?: string; paymentIntentId?: string };
}

async function post(url: string, json: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: await res.json() };
}

/** A KV file with one competition of `maxEntries` places; returns its path, id and picks. */
async function rushStore(maxEntries: number) {
  const dir = await Deno.makeTempDir({ prefix: "rush-e2e-" });
  const path = `${dir}/rush.kv`;
  const kv = await Deno.openKv(path);
  try {
    const c = await makeCompetition(kv, { name: "Rush Cup", maxEntries });
    return { dir, path, cid: c.id, picks: validPicks(c) };
  } finally {
    kv.close();
  }
}

function serverOn(path: string, jobs: number): Promise<RunningServer> {
  // All buyers of the test come from 127.0.0.1: the per-address intent limit is off.
  const env = { DENO_KV_PATH: path, DENO_JOBS: String(jobs), DEMO_DATA: "0" };
  return startServer({ env: { ...env, PAYMENT_INTENTS_PER_10_MIN: "0" } });
}

/**
 * A buyer's intent (with the picks kept) and test-card payment; returns the payment id, or the
 * intent's refusal when the competition filled before this buyer asked (nothing is paid then).
 */
async function tryPay(
  base: string,
  cid: number,
  picks: number[],
  n: number,
): Promise<string | Answer> {
  const team = { email: `buyer${n}@example.com`, teamName: `Rush ${n}`, playerIds: picks };
  const intent = await post(`${base}/api/create-payment-intent`, { competitionId: cid, ...team });
  if (intent.status === 409) return intent;
  assert.equal(intent.status, 200, JSON.stringify(intent.body));
  const paymentIntentId = intent.body.paymentIntentId!;
  const paid = await post(`${base}/api/test-payments/confirm`, {
    paymentIntentId,
    cardNumber: SUCCESS_CARD,
  });
  assert.equal(paid.status, 200, JSON.stringify(paid.body));
  return paymentIntentId;
}

/** A buyer's payment into a competition that cannot be full yet; returns the payment id. */
async function pay(base: string, cid: number, picks: number[], n: number): Promise<string> {
  const id = await tryPay(base, cid, picks, n);
  assert.equal(typeof id, "string", JSON.stringify(id));
  return id as string;
}

async function enter(base: string, cid: number, picks: number[], n: number, id: string) {
  return await post(`${base}/api/entries`, {
    competitionId: cid,
    email: `buyer${n}@example.com`,
    teamName: `Rush ${n}`,
    playerIds: picks,
    stripePaymentId: id,
  });
}

/** How each payment ended in the store: entry, refund (done, at the provider too) or neither. */
async function outcomes(path: string, cid: number, paymentIds: string[]) {
  const kv = withBusyRetry(await retryWhileBusy(() => Deno.openKv(path)));
  try {
    const counts = { entries: 0, refunds: 0, unresolved: 0, both: 0 };
    for (const id of paymentIds) {
      const entry = await getEntryByPayment(kv, id);
      const refund = await getRefund(kv, id);
      const refunded = refund?.status === "DONE" && (await getTestIntent(kv, id))?.refunded;
      if (entry && refund) counts.both++;
      else if (entry) counts.entries++;
      else if (refunded) counts.refunds++;
      else counts.unresolved++;
    }
    const listed = (await listEntriesByCompetition(kv, cid)).length;
    const current = (await getCompetition(kv, cid))?.currentEntries;
    return { ...counts, listed, current };
  } finally {
    kv.close();
  }
}

/**
 * 100 buyers at once, spread over `bases`: exactly 40 entries, and every other buyer refused with
 * the competition full, either before paying (the intent is refused once 40 entries are saved) or
 * after (the payment refunded). Which buyers pay before the competition fills depends on how the
 * requests land, so the test counts outcomes and assumes no order.
 */
async function rush100(bases: string[], store: Awaited<ReturnType<typeof rushStore>>) {
  const { cid, picks } = store;
  const answers = await Promise.all(Array.from({ length: 100 }, async (_, n) => {
    const base = bases[n % bases.length];
    const id = await tryPay(base, cid, picks, n);
    if (typeof id !== "string") return { id: null, stage: "intent", ...id };
    return { id, stage: "entry", ...(await enter(base, cid, picks, n, id)) };
  }));
  const seen = answers.map((a) => `${a.stage} ${a.status}`).join(", ");
  const entered = answers.filter((a) => a.status === 201);
  assert.equal(entered.length, 40, seen);
  const refusedAfterPaying = answers.filter((a) => a.stage === "entry" && a.status !== 201);
  const refusedBeforePaying = answers.filter((a) => a.stage === "intent");
  assert.equal(refusedAfterPaying.length + refusedBeforePaying.length, 60, seen);
  for (const a of refusedAfterPaying) {
    assert.equal(a.status, 409, seen);
    assert.equal(a.body.message, FULL);
  }
  for (const a of refusedBeforePaying) {
    assert.equal(a.body.message, "This competition is full.");
  }
  const paid = answers.flatMap((a) => a.id === null ? [] : [a.id]);
  const ended = await outcomes(store.path, cid, paid);
  assert.deepEqual(ended, {
    entries: 40,
    refunds: refusedAfterPaying.length,
    unresolved: 0,
    both: 0,
    listed: 40,
    current: 40,
  });
}

Deno.test("[rush] two app processes on one KV file: 100 buyers for 40 places", async () => {
  const store = await rushStore(40);
  const a = await serverOn(store.path, 1);
  const b = await serverOn(store.path, 1);
  try {
    await rush100([a.url, b.url], store);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await Deno.remove(store.dir, { recursive: true });
  }
});

Deno.test("[rush] deno serve --parallel with 2 isolates: 100 buyers for 40 places", async () => {
  const store = await rushStore(40);
  const server = await serverOn(store.path, 2);
  try {
    assert.match(server.output(), /Serving with 2 isolates/);
    await rush100([server.url], store);
  } finally {
    await server.stop();
    await Deno.remove(store.dir, { recursive: true });
  }
  assert.doesNotMatch(server.output(), /Shutdown timed out|Error during shutdown/);
});

Deno.test("[rush] kill -9 under paid-entry load: every payment resolved within 60 s of the restart", async () => {
  const store = await rushStore(40);
  const { cid, picks } = store;
  const first = await serverOn(store.path, 2);
  let paid: string[] = [];
  try {
    paid = await Promise.all(Array.from({ length: 60 }, (_, n) => pay(first.url, cid, picks, n)));
    let answered = 0;
    const load = paid.map((id, n) =>
      enter(first.url, cid, picks, n, id).then(() => answered++, () => {})
    );
    await waitFor("15 entries answered", () => answered >= 15, { timeoutMs: 60_000, everyMs: 5 });
    await first.kill();
    await Promise.all(load);
  } catch (err) {
    await first.kill();
    throw err;
  }
  const before = await outcomes(store.path, cid, paid);
  assert.ok(before.unresolved > 0, `some payments were left mid-way (${JSON.stringify(before)})`);

  const restarted = await serverOn(store.path, 2);
  try {
    const ended = await waitFor("every payment resolved", async () => {
      const now = await outcomes(store.path, cid, paid);
      return now.unresolved === 0 && now;
    }, { timeoutMs: 60_000, everyMs: 1000 });
    assert.equal(ended.both, 0);
    assert.equal(ended.entries + ended.refunds, 60);
    assert.equal(ended.entries, 40);
    assert.equal(ended.listed, 40);
    assert.equal(ended.current, 40);
  } finally {
    await restarted.stop();
    await Deno.remove(store.dir, { recursive: true });
  }
});
