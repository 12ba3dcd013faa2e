import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { keys } from "@/lib/db/keys.ts";
import type { Refund } from "@/lib/db/refunds.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { cancelCompetition } from "@/lib/payments/cancellation.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  DECLINED_CARD,
  entryBody,
  makeAdminHeaders,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
} from "@/tests/helpers/fixtures.ts";

let buyer = 0;

/** A paid entry through the API; the status says whether it entered (201) or was refunded. */
async function buy(app: TestApp, c: TestCompetition, paid?: string): Promise<number> {
  const paymentId = paid ?? await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", {
    method: "POST",
    json: { ...entryBody(c, paymentId), email: `buyer${++buyer}@example.com` },
  });
  await res.body?.cancel();
  return res.status;
}

/** A checkout whose card is declined: an intent that stays unpaid. */
async function decline(app: TestApp, c: TestCompetition): Promise<void> {
  const { competitionId, email, teamName, playerIds } = entryBody(c, "");
  const intent = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId, email, teamName, playerIds },
  });
  const { paymentIntentId } = await readJsonBody(intent);
  const res = await app.request("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber: DECLINED_CARD },
  });
  assert.equal(res.status, 402);
  await res.body?.cancel();
}

Deno.test("[ledger] the books balance to the cent after entries, declines, refunds, a cancellation and a completion", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const full = await makeCompetition(app.kv, { name: "Full Cup", entryFee: 5, maxEntries: 3 });
    const cancelled = await makeCompetition(app.kv, {
      name: "Rained Off",
      entryFee: 4.5,
      currency: "GBP",
    });
    const completed = await makeCompetition(app.kv, { name: "Final", entryFee: 5, prizePool: 8 });

    const early = [];
    for (let i = 0; i < 4; i++) early.push(await payTestIntent(app, full.id));
    await decline(app, full);
    for (const paid of early.slice(0, 3)) assert.equal(await buy(app, full, paid), 201);
    assert.equal(await buy(app, full, early[3]), 409, "full: the fourth payment is refunded");
    for (let i = 0; i < 2; i++) assert.equal(await buy(app, cancelled), 201);
    for (let i = 0; i < 2; i++) assert.equal(await buy(app, completed), 201);

    const raise = await app.request(`/api/admin/competitions/${cancelled.id}`, {
      method: "PUT",
      headers: admin,
      json: {
        name: cancelled.name,
        league: cancelled.league,
        entryFee: "999999.99",
        prizePool: "100",
        currency: "GBP",
        prizeType: "CASH",
        deadline: cancelled.deadline,
        status: "UPCOMING",
      },
    });
    assert.equal(raise.status, 409, "the fee cannot be raised under paid entries");
    await raise.body?.cancel();
    await cancelCompetition(app.services, cancelled.id, "Rain", TEST_ORIGIN);
    await setPrizeStructure(app.kv, completed.id, [
      { position: 1, prize: 5 },
      { position: 2, prize: 3 },
    ]);
    await updateCompetition(app.kv, completed.id, { status: "LIVE" });
    await updateCompetition(app.kv, completed.id, { status: "COMPLETED" });

    const result = await reconcile(app.services);
    await t.step("no record disagrees and nothing is pending", () => {
      assert.deepEqual(result.discrepancies, []);
      assert.equal(result.pending, 0);
    });
    await t.step("each competition's line", () => {
      const line = (cid: number) =>
        result.ledger.competitions.find((l) => l.competitionId === cid)!;
      assert.deepEqual(
        [line(full.id).collected, line(full.id).refunded, line(full.id).entriesKept],
        [2000, 500, 1500],
      );
      const rained = line(cancelled.id);
      assert.equal(rained.currency, "gbp");
      assert.deepEqual([rained.collected, rained.refunded, rained.entriesKept], [900, 900, 0]);
      const final = line(completed.id);
      assert.deepEqual([final.entriesKept, final.prizesOwed, final.operatorKeeps], [
        1000,
        800,
        200,
      ]);
    });
    await t.step("totals per currency", () => {
      const usd = result.ledger.totals.find((l) => l.currency === "usd")!;
      assert.deepEqual(
        [usd.collected, usd.refunded, usd.entriesKept, usd.prizesOwed, usd.operatorKeeps],
        [3000, 500, 2500, 800, 1700],
      );
      const gbp = result.ledger.totals.find((l) => l.currency === "gbp")!;
      assert.deepEqual([gbp.collected, gbp.refunded, gbp.operatorKeeps], [900, 900, 0]);
    });
    await t.step("the Payments API lists each payment once, with totals that agree", async () => {
      const res = await app.request("/api/admin/payments", { headers: admin });
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      assert.deepEqual(body.counts, { entry: 5, refunded: 3, pending: 0, unpaid: 1 });
      assert.deepEqual(body.totals.entry, { usd: 2500 });
      assert.deepEqual(body.totals.refunded, { usd: 500, gbp: 900 });
      const ids = body.payments.map((p: { paymentIntentId: string }) => p.paymentIntentId);
      assert.equal(new Set(ids).size, ids.length, "no payment twice");
      assert.equal(ids.length, 9);
    });
    await t.step("a refund of another amount than was charged is named", async () => {
      const book = await app.request(
        `/api/admin/payments?status=refunded&competitionId=${full.id}`,
        {
          headers: admin,
        },
      );
      const [refunded] = (await readJsonBody(book)).payments;
      const key = keys.refund(refunded.paymentIntentId);
      const stored = (await app.kv.get<Refund>(key)).value!;
      await app.kv.set(key, { ...stored, amount: 99_999_999 });
      const off = await reconcile(app.services);
      assert.ok(
        off.discrepancies.some((d) =>
          d.record === `payment ${refunded.paymentIntentId}` &&
          /refunds 999999\.99 USD of 5\.00/.test(d.problem)
        ),
        JSON.stringify(off.discrepancies),
      );
      assert.ok(off.discrepancies.some((d) => d.record === `competition ${full.id}`));
      await app.kv.set(key, stored);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[payments] search, filter, numeric sort and pages", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const a = await makeCompetition(app.kv, { name: "Alpha", entryFee: 12 });
    const b = await makeCompetition(app.kv, { name: "Beta", entryFee: 9 });
    for (let i = 0; i < 3; i++) await buy(app, a);
    for (let i = 0; i < 2; i++) await buy(app, b);
    const get = async (query: string) => {
      const res = await app.request(`/api/admin/payments${query}`, { headers: admin });
      assert.equal(res.status, 200, query);
      return await readJsonBody(res);
    };
    await t.step("amounts sort as numbers, both ways", async () => {
      const up = await get("?sort=amount&dir=asc");
      assert.deepEqual(up.payments.map((p: { amount: number }) => p.amount), [
        900,
        900,
        1200,
        1200,
        1200,
      ]);
      const down = await get("?sort=amount&dir=desc");
      assert.equal(down.payments[0].amount, 1200);
    });
    await t.step(
      "search finds a name or an e-mail; the competition filter scopes counts",
      async () => {
        const found = await get(`?q=BUYER${buyer}@example`);
        assert.equal(found.matching, 1);
        assert.equal(found.payments[0].email, `buyer${buyer}@example.com`);
        const onlyB = await get(`?competitionId=${b.id}`);
        assert.equal(onlyB.counts.entry, 2);
        assert.deepEqual(onlyB.totals.entry, { usd: 1800 });
      },
    );
    await t.step("bad parameters are 400s naming the field", async () => {
      for (
        const [query, field] of [["?sort=name", "sort"], ["?cursor=abc", "cursor"], [
          "?dir=up",
          "dir",
        ], ["?competitionId=-1", "competitionId"]]
      ) {
        const res = await app.request(`/api/admin/payments${query}`, { headers: admin });
        assert.equal(res.status, 400, query);
        assert.deepEqual((await readJsonBody(res)).issues[0].path, [field]);
      }
    });
    await t.step("the screen shows the ledger, entrants and totals", async () => {
      const res = await app.request(`/admin/payments?q=alpha`, { headers: admin });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /<h2[^>]*>Ledger<\/h2>/);
      assert.match(html, /data-count="entry"[^>]*>3</);
      assert.match(html, /\$36\.00/);
      assert.equal(html.match(/data-payment="/g)?.length, 3, "only Alpha's payments");
    });
  } finally {
    await app.close();
  }
});
