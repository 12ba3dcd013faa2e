/**
 * A paid payment whose picks no longer make a team (a picked player taken out of the
 * competition, a rule tightened after the intent was opened) is refunded once, by the webhook or
 * the browser, and never becomes an entry; a body of the wrong shape is a plain 400, not refunded.
 */
import assert from "node:assert/strict";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import { removeCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { getEntryByPayment, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeCompetition,
  type TestCompetition,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import {
  paidStripeCheckout,
  sendWebhook,
  signedEvent,
  withStripeApp,
} from "@/tests/helpers/stripe.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const NOT_IN_COMPETITION = "Some selected players are not part of this competition.";
const REFUNDED = " Your payment has been refunded.";
const REFUNDED_REUSE = "This payment has been refunded and cannot be used for an entry.";

function postEntry(app: TestApp, json: unknown) {
  return app.request("/api/entries", { method: "POST", json });
}

async function deliverSucceeded(app: TestApp, intent: unknown): Promise<Response> {
  return sendWebhook(app, await signedEvent("payment_intent.succeeded", intent));
}

/** Takes the first picked player out of the competition (an admin edit after the intent). */
async function removeFirstPick(app: TestApp, c: TestCompetition): Promise<void> {
  assert.equal(await removeCompetitionPlayers(app.kv, c.id, [validPicks(c)[0]]), 1);
}

/** The payment ended refunded, once, with `reason`, and made no entry. */
async function assertRefundedOnce(
  app: TestApp,
  refunds: { payment_intent: string }[],
  c: TestCompetition,
  paymentId: string,
  reason: string,
): Promise<void> {
  assert.deepEqual(refunds.map((r) => r.payment_intent), [paymentId], "refunded exactly once");
  const refund = await getRefund(app.kv, paymentId);
  assert.equal(refund?.status, "DONE");
  assert.equal(refund?.reason, reason);
  const checkout = await getPendingCheckout(app.kv, paymentId);
  assert.equal(checkout?.status, "REFUNDED");
  assert.equal(checkout?.refundReason, reason);
  assert.equal(await getEntryByPayment(app.kv, paymentId), null);
  assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
}

Deno.test("[money] the webhook refunds a checkout whose picked player was removed", async () => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv);
    const intent = await paidStripeCheckout(app, fake, c);
    await removeFirstPick(app, c);
    const webhook = await deliverSucceeded(app, intent);
    assert.equal(webhook.status, 200);
    assert.deepEqual(await readJsonBody(webhook), { received: true, outcome: "refunded" });
    await assertRefundedOnce(app, fake.refunds, c, intent.id, NOT_IN_COMPETITION);

    const redelivered = await deliverSucceeded(app, intent);
    assert.equal((await readJsonBody(redelivered)).outcome, "ignored");
    const late = await postEntry(app, entryBody(c, intent.id));
    assert.equal(late.status, 409, "the browser coming back late gets no entry");
    assert.deepEqual(await readJsonBody(late), { message: REFUNDED_REUSE });
    await assertRefundedOnce(app, fake.refunds, c, intent.id, NOT_IN_COMPETITION);
  });
});

Deno.test("[money] POST /api/entries refunds paid picks that break the rules, once", async (t) => {
  const cases: [string, (app: TestApp, c: TestCompetition) => Promise<void>, string][] = [
    ["a picked player removed from the competition", removeFirstPick, NOT_IN_COMPETITION],
    [
      "maxForwards lowered below the picked forwards",
      async (app, c) => {
        await updateCompetition(app.kv, c.id, { maxForwards: 0 });
      },
      "You can only select a maximum of 0 forwards.",
    ],
  ];
  for (const [label, change, reason] of cases) {
    await t.step(label, async () => {
      await withStripeApp(async (app, fake) => {
        const c = await makeCompetition(app.kv);
        const intent = await paidStripeCheckout(app, fake, c);
        await change(app, c);
        const res = await postEntry(app, entryBody(c, intent.id));
        assert.equal(res.status, 409);
        assert.deepEqual(await readJsonBody(res), { message: reason + REFUNDED });
        await assertRefundedOnce(app, fake.refunds, c, intent.id, reason);

        const retry = await postEntry(app, entryBody(c, intent.id));
        assert.equal(retry.status, 409, "a retry is refused the same way");
        assert.deepEqual(await readJsonBody(retry), { message: REFUNDED_REUSE });
        const webhook = await deliverSucceeded(app, intent);
        assert.equal((await readJsonBody(webhook)).outcome, "ignored");
        await assertRefundedOnce(app, fake.refunds, c, intent.id, reason);
      });
    });
  }
});

/**
 * What the webhook made of the event, delivered again the way Stripe does while it answers
 * non-2xx (a 409 while the browser's refund is still on its way to the provider).
 */
async function webhookOutcome(app: TestApp, intent: unknown, res: Response): Promise<string> {
  const settled = await waitFor("the webhook past its 409", async () => {
    if (res.status !== 409) return res;
    await res.body?.cancel();
    res = await deliverSucceeded(app, intent);
    return false;
  }, { everyMs: 20 });
  assert.equal(settled.status, 200);
  return (await readJsonBody(settled)).outcome;
}

Deno.test("[money] browser and webhook refusing the same removed pick at once: one refund", async () => {
  await withStripeApp(async (app, fake) => {
    for (let round = 0; round < 5; round++) {
      const c = await makeCompetition(app.kv);
      const intent = await paidStripeCheckout(app, fake, c);
      await removeFirstPick(app, c);
      const [browser, webhook] = await Promise.all([
        postEntry(app, entryBody(c, intent.id)),
        deliverSucceeded(app, intent),
      ]);
      assert.equal(browser.status, 409, `round ${round}: browser`);
      const { message } = await readJsonBody(browser);
      assert.ok([NOT_IN_COMPETITION + REFUNDED, REFUNDED_REUSE].includes(message), message);
      const outcome = await webhookOutcome(app, intent, webhook);
      assert.ok(["refunded", "ignored"].includes(outcome), `round ${round}: ${outcome}`);
      const mine = fake.refunds.filter((r) => r.payment_intent === intent.id);
      await assertRefundedOnce(app, mine, c, intent.id, NOT_IN_COMPETITION);
    }
  });
});

Deno.test("[money] a body of the wrong shape for a paid intent is a 400 and not refunded", async () => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv);
    const intent = await paidStripeCheckout(app, fake, c);
    const bad = await postEntry(app, { ...entryBody(c, intent.id), email: "not-an-email" });
    assert.equal(bad.status, 400);
    const body = await readJsonBody(bad);
    assert.equal(body.message, "Please provide a valid email");
    assert.deepEqual(body.issues[0].path, ["email"]);
    assert.deepEqual(fake.refunds, []);
    assert.equal(await getRefund(app.kv, intent.id), null);
    assert.equal((await getPendingCheckout(app.kv, intent.id))?.status, "PENDING");

    const fixed = await postEntry(app, entryBody(c, intent.id));
    assert.equal(fixed.status, 201, "the browser fixes the body and the payment still enters");
    await fixed.body?.cancel();
    assert.deepEqual(fake.refunds, []);
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
  });
});
