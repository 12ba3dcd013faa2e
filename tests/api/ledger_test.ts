import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { keys } from "@/lib/store/keys.ts";
import type { Refund } from "@/lib/db/refunds.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { OutboxMailer } from "@/lib/email/outbox_mailer.ts";
import { createEntry, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { savePendingCheckout } from "@/lib/db/checkouts.ts";
import { paidStripeCheckout, withStripeApp } from "@/tests/helpers/stripe.ts";
import { cancelCompetition } from "@/lib/payments/cancellation.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  DECLINED_CARD,
  entryBody,
  makeAdminHeaders,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
  validPicks,
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

const RECONCILE = new URL("../../scripts/reconcile.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** `deno task reconcile` on the store at `path`: its exit code and what it printed. */
async function reconcileScript(path: string, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, RECONCILE, ...args],
    env: { DENO_KV_PATH: path, DEMO_DATA: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

/** A competition of `n` entries paid with the test provider, on a store opened by the caller. */
async function paidContest(kv: Deno.Kv, name: string, n: number): Promise<TestCompetition> {
  const c = await makeCompetition(kv, { name, entryFee: 5 });
  const provider = new TestPaymentProvider(kv);
  for (let i = 0; i < n; i++) {
    const intent = await provider.createIntent({
      amount: 500,
      currency: "usd",
      metadata: { competitionId: String(c.id) },
    });
    await provider.confirm(intent.id, "4242 4242 4242 4242");
    const charge = { amount: 500, currency: "usd" };
    const input = {
      competitionId: c.id,
      email: `${name.toLowerCase().replace(/\W/g, "")}${i}@example.com`,
      teamName: `${name} ${i}`,
      playerIds: validPicks(c),
      stripePaymentId: intent.id,
    };
    await savePendingCheckout(kv, {
      paymentIntentId: intent.id,
      ...input,
      ...charge,
      createdAt: new Date().toISOString(),
    });
    await createEntry(kv, { ...input, charge });
  }
  return c;
}

Deno.test("[reconcile] a deleted refund and a refund only the provider knows are named, exit 1", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "reconcile-" });
  const path = `${dir}/store.kv`;
  const kv = await Deno.openKv(path);
  try {
    const rained = await paidContest(kv, "Rained Off", 3);
    const live = await paidContest(kv, "Still On", 2);
    const deps = { kv, payments: new TestPaymentProvider(kv), mailer: new OutboxMailer(kv) };
    await cancelCompetition(deps, rained.id, "Rain", TEST_ORIGIN);
    const [gone] = await listEntriesByCompetition(kv, rained.id);
    const [kept] = await listEntriesByCompetition(kv, live.id);

    await t.step("the books and the provider agree: exit 0", async () => {
      const run = await reconcileScript(path, "--provider");
      assert.equal(run.code, 0, run.text);
      assert.match(run.text, /books balance/);
      assert.match(run.text, /test agrees with every payment and refund/);
    });

    await t.step("a refund record deleted from the store is named, exit 1", async () => {
      const key = keys.refund(gone.stripePaymentId);
      const saved = (await kv.get<Refund>(key)).value!;
      await kv.delete(key);
      const run = await reconcileScript(path);
      assert.equal(run.code, 1, run.text);
      assert.match(
        run.text,
        new RegExp(
          `entry ${gone.teamId}: its payment ${gone.stripePaymentId} has no refund, but Rained Off was cancelled`,
        ),
      );
      const both = await reconcileScript(path, "--provider");
      assert.match(
        both.text,
        new RegExp(
          `payment ${gone.stripePaymentId}: refunded 0\\.00 USD here but test says 5\\.00 USD`,
        ),
      );
      await kv.set(key, saved);
    });

    await t.step(
      "a refund made only at the provider is named with --provider, exit 1",
      async () => {
        await deps.payments.refund(kept.stripePaymentId, "by hand");
        const plain = await reconcileScript(path);
        assert.equal(plain.code, 0, "the store alone cannot see it");
        const run = await reconcileScript(path, "--provider");
        assert.equal(run.code, 1, run.text);
        assert.match(
          run.text,
          new RegExp(
            `payment ${kept.stripePaymentId}: refunded 0\\.00 USD here but test says 5\\.00 USD`,
          ),
        );
      },
    );
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[reconcile] --provider pages through Stripe's PaymentIntents and Refunds", async () => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv, { name: "Stripe Cup", entryFee: 5 });
    const paid = [];
    for (const who of ["ann", "bob"]) {
      const contact = { email: `${who}@example.com`, teamName: who };
      const intent = await paidStripeCheckout(app, fake, c, contact);
      const res = await app.request("/api/entries", {
        method: "POST",
        json: { ...entryBody(c, intent.id), ...contact },
      });
      assert.equal(res.status, 201);
      await res.body?.cancel();
      paid.push(intent.id);
    }
    const clean = await reconcile(app.services, [], { provider: true });
    assert.deepEqual(clean.discrepancies, []);

    fake.refundByHand(paid[0]);
    // More than one page (100) of payments the books never saw.
    for (let i = 0; i < 101; i++) {
      const stray = await app.services.payments.createIntent({
        amount: 700,
        currency: "usd",
        metadata: {},
      });
      fake.succeed(stray.id);
    }
    const off = await reconcile(app.services, [], { provider: true });
    const named = (record: string) => off.discrepancies.filter((d) => d.record === record);
    assert.deepEqual(named(`payment ${paid[0]}`).map((d) => d.problem), [
      "refunded 0.00 USD here but stripe says 5.00 USD",
    ]);
    const strays = off.discrepancies.filter((d) => /books have no record/.test(d.problem));
    assert.equal(strays.length, 101, "every page read");
    assert.ok(fake.requests.filter((r) => r === "GET /v1/payment_intents").length >= 2);
    assert.ok(fake.requests.includes("GET /v1/refunds"));
  });
});
