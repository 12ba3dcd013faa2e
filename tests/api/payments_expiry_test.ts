/**
 * Unpaid payments expire: an intent left unpaid for UNPAID_INTENT_TTL_MS is
 * cancelled at the provider by the sweep and its pending checkout removed, so a spam run of
 * intents leaves the store as it found it; a payment that succeeds first, even while its expired
 * checkout is being cancelled, still ends as its entry or its refund.
 */
import assert from "node:assert/strict";
import { getPendingCheckout, listPendingCheckoutIds } from "@/lib/db/checkouts.ts";
import { getEntryByPayment, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { UNPAID_INTENT_TTL_MS } from "@/lib/payments/provider.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import type { SweepReport } from "@/lib/payments/sweep.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { UpstreamError } from "@/lib/domain/errors.ts";
import { readJsonBody, TEST_ORIGIN, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import {
  makeCompetition,
  SUCCESS_CARD,
  type TestCompetition,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import { withStripeApp } from "@/tests/helpers/stripe.ts";

const SPAMMER = "203.0.113.7";
/** A moment past the unpaid intents' time, as the sweep sees it (no sleeping for an hour). */
const pastExpiry = () => new Date(Date.now() + UNPAID_INTENT_TTL_MS + 1000);
const nothing: SweepReport = { finalised: 0, refunded: 0, expired: 0, failed: 0 };

/** The keys of the store, but the limits' records (they expire with their window). */
async function countKeys(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const { key } of kv.list({ prefix: [] })) if (key[0] !== "rate_limits") n++;
  return n;
}

/** POST /api/create-payment-intent, with the picks (a pending checkout) or without. */
async function openIntent(app: TestApp, c: TestCompetition, withPicks: boolean): Promise<string> {
  const details = withPicks
    ? { email: "spam@example.com", teamName: "Spam Team", playerIds: validPicks(c) }
    : {};
  const res = await app.request("/api/create-payment-intent", {
    method: "POST",
    from: SPAMMER,
    json: { competitionId: c.id, ...details },
  });
  assert.equal(res.status, 200);
  return (await readJsonBody(res)).paymentIntentId;
}

function confirmTestCard(app: TestApp, paymentIntentId: string): Promise<Response> {
  return app.request("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber: SUCCESS_CARD },
  });
}

Deno.test("[expiry] a spam run of unpaid intents: the store returns to its size once they expire", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const baseline = await countKeys(app.kv);
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 60; i++) ids.push(await openIntent(app, c, i % 2 === 0));
      const grown = await countKeys(app.kv);
      assert.ok(grown >= baseline + 60 + 30, "the store grew: the intents, and the checkouts");

      await sweepPayments(app.services, TEST_ORIGIN);
      assert.equal(await countKeys(app.kv), grown, "nothing expires before its time");
      const report = await sweepPayments(app.services, TEST_ORIGIN, pastExpiry());
      assert.equal(await countKeys(app.kv), baseline, `round ${round + 1}: back to the baseline`);
      assert.deepEqual(report, { ...nothing, expired: 60 });
    }
    assert.deepEqual(await listPendingCheckoutIds(app.kv), []);
    assert.deepEqual(await sweepPayments(app.services, TEST_ORIGIN, pastExpiry()), nothing);

    // An expired intent can no longer be paid, nor buy an entry.
    const late = await confirmTestCard(app, ids[0]);
    assert.equal(late.status, 404);
    await late.body?.cancel();
    const entry = await app.request("/api/entries", {
      method: "POST",
      json: {
        competitionId: c.id,
        email: "spam@example.com",
        teamName: "Spam Team",
        playerIds: validPicks(c),
        stripePaymentId: ids[0],
      },
    });
    assert.equal(entry.status, 402);
    await entry.body?.cancel();
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
  }, { config: { intentsPer10Min: 0 } });
});

Deno.test("[expiry] test mode: a paid checkout outlives its expiry and becomes its entry", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const paid = await openIntent(app, c, true);
    const unpaid = await openIntent(app, c, true);
    const confirm = await confirmTestCard(app, paid);
    assert.equal(confirm.status, 200);
    await confirm.body?.cancel();

    const report = await sweepPayments(app.services, TEST_ORIGIN, pastExpiry());
    assert.deepEqual(report, { ...nothing, finalised: 1, expired: 1 });
    assert.equal((await getEntryByPayment(app.kv, paid))?.teamName, "Spam Team");
    assert.equal((await getPendingCheckout(app.kv, paid))?.status, "FINALISED");
    assert.equal((await app.services.payments.retrieveIntent(paid))?.status, "succeeded");
    assert.equal(await getPendingCheckout(app.kv, unpaid), null);
    assert.equal(await app.services.payments.retrieveIntent(unpaid), null);
  });
});

Deno.test("[expiry] Stripe: unpaid intents are cancelled at Stripe, then their checkouts removed", async () => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv);
    const baseline = await countKeys(app.kv);
    const unpaid: string[] = [];
    for (let i = 0; i < 12; i++) unpaid.push(await openIntent(app, c, true));
    const paid = await openIntent(app, c, true);
    fake.succeed(paid);

    fake.failCancels = true;
    const down = await sweepPayments(app.services, TEST_ORIGIN, pastExpiry());
    assert.deepEqual(down, { ...nothing, finalised: 1, failed: 12 });
    assert.equal((await listPendingCheckoutIds(app.kv)).length, 12, "kept until Stripe cancels");

    fake.failCancels = false;
    const report = await sweepPayments(app.services, TEST_ORIGIN, pastExpiry());
    assert.deepEqual(report, { ...nothing, expired: 12 });
    for (const id of unpaid) {
      assert.equal(fake.intents.get(id)?.status, "canceled");
      assert.equal(fake.intents.get(id)?.cancellation_reason, "abandoned");
      assert.equal(await getPendingCheckout(app.kv, id), null);
    }
    assert.equal(fake.intents.get(paid)?.status, "succeeded");
    assert.equal(
      fake.requests.filter((r) => r === `POST /v1/payment_intents/${paid}/cancel`).length,
      0,
      "a paid intent is never cancelled",
    );
    assert.equal((await getPendingCheckout(app.kv, paid))?.status, "FINALISED");
    const entryKeys = (await countKeys(app.kv)) - baseline;
    // The entry's records, its competition's entry sequence, its payer's spend ledger and its
    // confirmation (with the outbox's recipient index): nothing of the twelve abandoned ones.
    assert.ok(entryKeys > 0 && entryKeys < 18, `only the paid entry's records stay: ${entryKeys}`);
    assert.throws(() => fake.succeed(unpaid[0]), /cannot be paid/);
  });
});

Deno.test("[expiry] Stripe: paid while its expired checkout is being cancelled, it still ends as an entry or a refund", async () => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv, { maxEntries: 1 });
    const first = await openIntent(app, c, true);
    const second = await openIntent(app, c, true);
    // The buyers pay at Stripe just as the sweep asks Stripe to cancel: Stripe refuses.
    fake.onCancel = (id) => fake.succeed(id);

    const report = await sweepPayments(app.services, TEST_ORIGIN, pastExpiry());
    assert.deepEqual(report, { ...nothing, finalised: 1, refunded: 1 });
    const entries = await listEntriesByCompetition(app.kv, c.id);
    assert.equal(entries.length, 1);
    const [won, lost] = (await getEntryByPayment(app.kv, first))
      ? [first, second]
      : [second, first];
    assert.equal((await getPendingCheckout(app.kv, won))?.status, "FINALISED");
    assert.equal((await getRefund(app.kv, lost))?.status, "DONE");
    assert.equal((await getPendingCheckout(app.kv, lost))?.status, "REFUNDED");
    assert.deepEqual(fake.refunds.map((r) => r.payment_intent), [lost]);
    assert.deepEqual(await listPendingCheckoutIds(app.kv), []);
  });
});

Deno.test("[expiry] the providers' cancel: unpaid → canceled, a paid intent is left as it is", async (t) => {
  await t.step("test mode", async () => {
    const kv = await Deno.openKv(":memory:");
    try {
      const provider = new TestPaymentProvider(kv);
      const paid = await provider.createIntent({ amount: 500, currency: "usd", metadata: {} });
      const open = await provider.createIntent({ amount: 500, currency: "usd", metadata: {} });
      await provider.confirm(paid.id, SUCCESS_CARD);
      const later = new Date(Date.now() + 1000);
      assert.deepEqual(await provider.listUnpaidIntents(later, 10), [open.id]);
      assert.deepEqual(await provider.listUnpaidIntents(new Date(Date.now() - 60_000), 10), []);

      assert.equal((await provider.cancelIntent(open.id))?.status, "canceled");
      assert.equal(await provider.retrieveIntent(open.id), null);
      assert.deepEqual(await provider.listUnpaidIntents(later, 10), []);
      assert.equal(await provider.cancelIntent(open.id), null);
      await assert.rejects(() => provider.confirm(open.id, SUCCESS_CARD), /Payment not found/);

      assert.equal((await provider.cancelIntent(paid.id))?.status, "succeeded");
      assert.equal((await provider.retrieveIntent(paid.id))?.status, "succeeded");
    } finally {
      kv.close();
    }
  });
  await t.step("test mode: paid and cancelled at once, exactly one wins", async () => {
    const kv = await Deno.openKv(":memory:");
    try {
      const provider = new TestPaymentProvider(kv);
      for (let round = 0; round < 20; round++) {
        const { id } = await provider.createIntent({ amount: 500, currency: "usd", metadata: {} });
        const [paid, cancelled] = await Promise.allSettled([
          provider.confirm(id, SUCCESS_CARD),
          provider.cancelIntent(id),
        ]);
        const after = await provider.retrieveIntent(id);
        if (paid.status === "fulfilled") {
          assert.equal(after?.status, "succeeded");
          assert.equal(cancelled.status === "fulfilled" && cancelled.value?.status, "succeeded");
        } else {
          assert.equal(after, null);
          assert.equal(cancelled.status === "fulfilled" && cancelled.value?.status, "canceled");
        }
      }
    } finally {
      kv.close();
    }
  });
  await t.step("Stripe", async () => {
    await withStripeApp(async (app, fake) => {
      const { payments } = app.services;
      const open = await payments.createIntent({ amount: 500, currency: "usd", metadata: {} });
      const paid = await payments.createIntent({ amount: 500, currency: "usd", metadata: {} });
      fake.succeed(paid.id);
      assert.equal((await payments.cancelIntent(open.id))?.status, "canceled");
      assert.equal((await payments.cancelIntent(open.id))?.status, "canceled", "again: as it is");
      assert.equal((await payments.cancelIntent(paid.id))?.status, "succeeded", "refused");
      assert.equal(fake.intents.get(paid.id)?.status, "succeeded");
      assert.equal(await payments.cancelIntent("pi_does_not_exist"), null);
      assert.deepEqual(await payments.listUnpaidIntents(new Date(), 10), []);
      fake.failCancels = true;
      await assert.rejects(() => payments.cancelIntent(paid.id), UpstreamError);
    });
  });
});
