import assert from "node:assert/strict";
import Stripe from "stripe";
import { getPendingCheckout } from "../../lib/db/checkouts.ts";
import { getEntryByPayment, listEntriesByCompetition } from "../../lib/db/entries.ts";
import { type FakeStripe, startFakeStripe } from "../helpers/fake_stripe.ts";
import { makeTestApp, readJsonBody, TEST_WEBHOOK_SECRET, type TestApp } from "../helpers/app.ts";
import {
  makeCompetition,
  makeEntry,
  type TestCompetition,
  validPicks,
} from "../helpers/fixtures.ts";

const stripe = new Stripe("sk_test_signer");

async function signedEvent(type: string, object: unknown, secret = TEST_WEBHOOK_SECRET) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID()}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  });
  const signature = await stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, signature };
}

function sendWebhook(app: TestApp, event: { payload: string; signature: string }) {
  return app.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "stripe-signature": event.signature, "content-type": "application/json" },
    body: event.payload,
  });
}

/** A paid checkout whose browser never came back: intent with picks, paid at Stripe. */
async function paidCheckout(app: TestApp, fake: FakeStripe, c: TestCompetition) {
  const res = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: {
      competitionId: c.id,
      email: "late@example.com",
      teamName: "Late Runner",
      playerIds: validPicks(c),
    },
  });
  const { paymentIntentId } = await readJsonBody(res);
  return fake.succeed(paymentIntentId);
}

async function withStripe(fn: (app: TestApp, fake: FakeStripe) => Promise<void>) {
  const fake = startFakeStripe();
  const app = await makeTestApp({ stripe: fake });
  try {
    await fn(app, fake);
  } finally {
    await app.close();
    await fake.close();
  }
}

Deno.test("[webhook] payment_intent.succeeded finalises a pending checkout once", async (t) => {
  await withStripe(async (app, fake) => {
    const c = await makeCompetition(app.kv);
    const intent = await paidCheckout(app, fake, c);
    await t.step("the entry is created from the checkout", async () => {
      const res = await sendWebhook(app, await signedEvent("payment_intent.succeeded", intent));
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), { received: true, outcome: "finalised" });
      const entry = await getEntryByPayment(app.kv, intent.id);
      assert.equal(entry?.teamName, "Late Runner");
      assert.deepEqual(entry?.playerIds, validPicks(c));
      const checkout = await getPendingCheckout(app.kv, intent.id);
      assert.equal(checkout?.status, "FINALISED");
      assert.equal(checkout?.teamId, entry?.teamId);
    });
    await t.step("a redelivered event changes nothing", async () => {
      const res = await sendWebhook(app, await signedEvent("payment_intent.succeeded", intent));
      assert.equal(res.status, 200);
      assert.equal((await readJsonBody(res)).outcome, "ignored");
      assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
    });
    await t.step("the browser coming back late gets the same entry (200)", async () => {
      const res = await app.request("/api/entries", {
        method: "POST",
        json: {
          competitionId: c.id,
          email: "late@example.com",
          teamName: "Late Runner",
          playerIds: validPicks(c),
          stripePaymentId: intent.id,
        },
      });
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      assert.equal(body.teamId, (await getEntryByPayment(app.kv, intent.id))?.teamId);
    });
  });
});

Deno.test("[webhook] a checkout that can no longer become an entry is refunded", async () => {
  await withStripe(async (app, fake) => {
    const c = await makeCompetition(app.kv, { maxEntries: 1 });
    const intent = await paidCheckout(app, fake, c);
    await makeEntry(app.kv, c);
    const res = await sendWebhook(app, await signedEvent("payment_intent.succeeded", intent));
    assert.equal(res.status, 200);
    assert.equal((await readJsonBody(res)).outcome, "refunded");
    assert.deepEqual(fake.refunds.map((r) => r.payment_intent), [intent.id]);
    const checkout = await getPendingCheckout(app.kv, intent.id);
    assert.equal(checkout?.status, "REFUNDED");
    assert.equal(checkout?.refundReason, "This competition is full.");
    assert.equal(await getEntryByPayment(app.kv, intent.id), null);
  });
});

Deno.test("[webhook] bad signatures are 400, other events are acknowledged", async (t) => {
  await withStripe(async (app, fake) => {
    const c = await makeCompetition(app.kv);
    const intent = await paidCheckout(app, fake, c);
    await t.step("signed with another secret", async () => {
      const event = await signedEvent("payment_intent.succeeded", intent, "whsec_wrong");
      const res = await sendWebhook(app, event);
      assert.equal(res.status, 400);
      assert.deepEqual(await readJsonBody(res), { message: "Invalid webhook signature" });
    });
    await t.step("a tampered payload", async () => {
      const event = await signedEvent("payment_intent.succeeded", intent);
      const res = await sendWebhook(app, {
        ...event,
        payload: event.payload.replace("Late", "Evil") + " ",
      });
      assert.equal(res.status, 400);
      await res.body?.cancel();
    });
    await t.step("no signature header", async () => {
      const res = await app.request("/api/stripe/webhook", { method: "POST", body: "{}" });
      assert.equal(res.status, 400);
      await res.body?.cancel();
    });
    await t.step("another event type is acknowledged without effect", async () => {
      const res = await sendWebhook(app, await signedEvent("payment_intent.created", intent));
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), { received: true });
    });
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
  });
});

Deno.test("[webhook] without Stripe configured the route is a 404", async () => {
  const app = await makeTestApp();
  try {
    const res = await app.request("/api/stripe/webhook", { method: "POST", body: "{}" });
    assert.equal(res.status, 404);
    assert.deepEqual(await readJsonBody(res), { message: "Not found" });
  } finally {
    await app.close();
  }
});
