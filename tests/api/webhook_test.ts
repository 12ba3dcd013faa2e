import assert from "node:assert/strict";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import { getEntryByPayment, listEntriesByCompetition } from "@/lib/db/entries.ts";
import type { FakeStripe } from "@/tests/helpers/fake_stripe.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  makeCompetition,
  makeEntry,
  type TestCompetition,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import {
  paidStripeCheckout,
  sendWebhook,
  signedEvent,
  withStripeApp,
} from "@/tests/helpers/stripe.ts";

/** A paid checkout whose browser never came back: intent with picks, paid at Stripe. */
function paidCheckout(app: TestApp, fake: FakeStripe, c: TestCompetition) {
  return paidStripeCheckout(app, fake, c, { email: "late@example.com", teamName: "Late Runner" });
}

Deno.test("[webhook] payment_intent.succeeded finalises a pending checkout once", async (t) => {
  await withStripeApp(async (app, fake) => {
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
  await withStripeApp(async (app, fake) => {
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
  await withStripeApp(async (app, fake) => {
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
