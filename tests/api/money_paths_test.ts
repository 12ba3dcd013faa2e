import { ConflictError } from "@/lib/domain/errors.ts";
/**
 * The money paths, case by case: a paid entry is never lost and never doubled,
 * and a payment that cannot become an entry is refunded exactly once and never buys one later.
 */
import assert from "node:assert/strict";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import { deleteCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { createEntry, getEntryByPayment, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { keys } from "@/lib/store/keys.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { claimRefund, getRefund } from "@/lib/db/refunds.ts";
import type { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { entryBody, makeCompetition, payTestIntent } from "@/tests/helpers/fixtures.ts";
import {
  paidStripeCheckout,
  sendWebhook,
  signedEvent,
  withStripeApp,
} from "@/tests/helpers/stripe.ts";

const REFUNDED_REUSE = "This payment has been refunded and cannot be used for an entry.";
const OTHER_COMPETITION = "This payment was made for a different competition.";

function postEntry(app: TestApp, json: unknown) {
  return app.request("/api/entries", { method: "POST", json });
}

/** Delivers `payment_intent.succeeded` for an intent, signed like Stripe does. */
async function deliverSucceeded(app: TestApp, intent: unknown): Promise<Response> {
  return sendWebhook(app, await signedEvent("payment_intent.succeeded", intent));
}

/**
 * Rounds of the race: the window where both could act is a few microtasks wide, so it takes
 * many rounds to hit (a check-then-act version of the code refunded a payment that had made its entry
 * about one round in 40). The store-level test at the end proves the same thing deterministically.
 */
const ROUNDS = 25;

Deno.test("[money] browser and webhook finalising one payment at once: one entry, no refund", async () => {
  await withStripeApp(async (app, fake) => {
    for (let round = 0; round < ROUNDS; round++) {
      const c = await makeCompetition(app.kv, { maxEntries: 1 });
      const intent = await paidStripeCheckout(app, fake, c);
      const [browser, webhook] = await Promise.all([
        postEntry(app, entryBody(c, intent.id)),
        deliverSucceeded(app, intent),
      ]);
      const entries = await listEntriesByCompetition(app.kv, c.id);
      assert.equal(entries.length, 1, `round ${round}: one entry`);
      assert.ok([200, 201].includes(browser.status), `round ${round}: browser ${browser.status}`);
      assert.equal((await readJsonBody(browser)).teamId, entries[0].teamId);
      assert.equal(webhook.status, 200);
      const { outcome } = await readJsonBody(webhook);
      assert.ok(["finalised", "already_done", "ignored"].includes(outcome), outcome);
      assert.deepEqual(fake.refunds, [], `round ${round}: nothing refunded`);
      assert.equal(await getRefund(app.kv, intent.id), null);
    }
    assert.equal((await listOutbox(app.kv)).length, ROUNDS, "one confirmation per entry");
  });
});

Deno.test("[money] the webhook before the browser: the browser gets that entry, even when now full", async () => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv, { maxEntries: 1 });
    const intent = await paidStripeCheckout(app, fake, c);
    const webhook = await deliverSucceeded(app, intent);
    assert.equal((await readJsonBody(webhook)).outcome, "finalised");
    const late = await postEntry(app, { ...entryBody(c, intent.id), teamName: "Other Name" });
    assert.equal(late.status, 200);
    const body = await readJsonBody(late);
    assert.equal(body.teamId, (await getEntryByPayment(app.kv, intent.id))?.teamId);
    assert.equal(body.teamName, "Jane's Team", "the entry the payment made, unchanged");
    assert.deepEqual(fake.refunds, []);
    assert.equal((await listOutbox(app.kv)).length, 1);
  });
});

Deno.test("[money] the entry was made but the answer lost: retries get the same entry", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { maxEntries: 1 });
    const paid = await payTestIntent(app, c.id);
    const first = await postEntry(app, entryBody(c, paid));
    assert.equal(first.status, 201);
    const { teamId } = await readJsonBody(first);
    const provider = app.services.payments as TestPaymentProvider;
    const changes: [string, Parameters<typeof updateCompetition>[2]][] = [
      ["now full (its own entry filled it)", {}],
      ["deadline passed", { deadline: new Date(Date.now() - 1000).toISOString() }],
      ["LIVE", { status: "LIVE" }],
    ];
    for (const [label, patch] of changes) {
      await t.step(label, async () => {
        await updateCompetition(app.kv, c.id, patch);
        const retry = await postEntry(app, entryBody(c, paid));
        assert.equal(retry.status, 200);
        assert.equal((await readJsonBody(retry)).teamId, teamId);
        assert.equal(await provider.isRefunded(paid), false, "never refunded");
      });
    }
    await t.step("the fee can no longer change once the entry is paid", async () => {
      await assert.rejects(() => updateCompetition(app.kv, c.id, { entryFee: 25 }), ConflictError);
    });
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
    assert.equal((await listOutbox(app.kv)).length, 1, "one confirmation e-mail");
  });
});

Deno.test("[money] a payment for competition A never enters competition B", async (t) => {
  await withTestApp(async (app) => {
    const a = await makeCompetition(app.kv);
    const b = await makeCompetition(app.kv);
    const paidForA = await payTestIntent(app, a.id);
    const provider = app.services.payments as TestPaymentProvider;
    const refuse = async () => {
      const res = await postEntry(app, entryBody(b, paidForA));
      assert.equal(res.status, 400);
      const body = await readJsonBody(res);
      assert.equal(body.message, OTHER_COMPETITION);
      assert.deepEqual(body.issues, [{ path: ["stripePaymentId"], message: OTHER_COMPETITION }]);
    };
    await t.step("before A's entry exists: 400, nothing refunded", async () => {
      await refuse();
      assert.equal(await provider.isRefunded(paidForA), false);
    });
    await t.step("A's entry can still be made with it", async () => {
      const res = await postEntry(app, entryBody(a, paidForA));
      assert.equal(res.status, 201);
      await res.body?.cancel();
    });
    await t.step("after A's entry exists: still 400, never A's entry passed off as B's", refuse);
    assert.equal((await listEntriesByCompetition(app.kv, b.id)).length, 0);
    assert.equal((await listEntriesByCompetition(app.kv, a.id)).length, 1);
  });
});

Deno.test("[money] the fee or currency changed after paying: refunded once, no entry", async (t) => {
  await withTestApp(async (app) => {
    const provider = app.services.payments as TestPaymentProvider;
    const cases: [string, Parameters<typeof updateCompetition>[2]][] = [
      ["fee", { entryFee: 12.5 }],
      ["currency", { currency: "GBP" }],
    ];
    for (const [label, patch] of cases) {
      await t.step(label, async () => {
        const c = await makeCompetition(app.kv);
        const paid = await payTestIntent(app, c.id);
        await updateCompetition(app.kv, c.id, patch);
        for (let i = 0; i < 2; i++) {
          const res = await postEntry(app, entryBody(c, paid));
          assert.equal(res.status, 409);
          assert.deepEqual(await readJsonBody(res), {
            message: i === 0
              ? "The entry fee has changed since this payment was made. " +
                "Your payment has been refunded."
              : REFUNDED_REUSE,
          });
        }
        assert.equal(await provider.isRefunded(paid), true);
        assert.equal((await getRefund(app.kv, paid))?.status, "DONE");
        assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
      });
    }
  });
});

Deno.test("[money] a refunded payment resubmitted never buys an entry", async (t) => {
  await t.step(
    "refunded by the app, checkout record long expired, competition reopened",
    async () => {
      await withTestApp(async (app) => {
        const c = await makeCompetition(app.kv, { status: "LIVE" });
        await updateCompetition(app.kv, c.id, { status: "UPCOMING" });
        const paid = await payTestIntent(app, c.id);
        await updateCompetition(app.kv, c.id, { status: "LIVE" });
        const refused = await postEntry(app, entryBody(c, paid));
        assert.equal(refused.status, 409);
        await refused.body?.cancel();
        await app.kv.delete(keys.checkout(paid)); // checkouts expire after 7 days
        await updateCompetition(app.kv, c.id, { status: "UPCOMING" });
        const again = await postEntry(app, entryBody(c, paid));
        assert.equal(again.status, 409);
        assert.deepEqual(await readJsonBody(again), { message: REFUNDED_REUSE });
        assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
      });
    },
  );
  await t.step("refunded by hand at Stripe (support), never seen by the app", async () => {
    await withStripeApp(async (app, fake) => {
      const c = await makeCompetition(app.kv);
      const intent = await paidStripeCheckout(app, fake, c);
      fake.refundByHand(intent.id);
      const webhook = await deliverSucceeded(app, intent);
      assert.equal(webhook.status, 200);
      assert.equal((await readJsonBody(webhook)).outcome, "refunded");
      const res = await postEntry(app, entryBody(c, intent.id));
      assert.equal(res.status, 409);
      assert.deepEqual(await readJsonBody(res), { message: REFUNDED_REUSE });
      assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
      assert.equal(fake.refunds.length, 1, "the app does not refund it a second time");
    });
  });
  await t.step("refunded by the test provider by hand", async () => {
    await withTestApp(async (app) => {
      const c = await makeCompetition(app.kv);
      const paid = await payTestIntent(app, c.id);
      await app.services.payments.refund(paid, "support");
      const res = await postEntry(app, entryBody(c, paid));
      assert.equal(res.status, 409);
      assert.deepEqual(await readJsonBody(res), { message: REFUNDED_REUSE });
    });
  });
});

Deno.test("[money] a refund the provider refuses is kept and retried, never forgotten", async () => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv);
    const intent = await paidStripeCheckout(app, fake, c);
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    fake.failRefunds = true;
    const failed = await postEntry(app, entryBody(c, intent.id));
    assert.equal(failed.status, 502);
    assert.match((await readJsonBody(failed)).message, /could not be refunded/);
    assert.equal((await getRefund(app.kv, intent.id))?.status, "PENDING");
    await updateCompetition(app.kv, c.id, { status: "UPCOMING" });
    const meanwhile = await postEntry(app, entryBody(c, intent.id));
    assert.equal(meanwhile.status, 502, "a payment set for refund never becomes an entry");
    await meanwhile.body?.cancel();
    fake.failRefunds = false;
    const retried = await deliverSucceeded(app, intent);
    assert.equal((await readJsonBody(retried)).outcome, "refunded");
    assert.equal((await getRefund(app.kv, intent.id))?.status, "DONE");
    assert.equal(fake.refunds.length, 1);
    assert.equal((await getPendingCheckout(app.kv, intent.id))?.status, "REFUNDED");
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
  });
});

Deno.test("[money] the competition deleted while paying: the payment is refunded", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const paid = await payTestIntent(app, c.id);
    await deleteCompetition(app.kv, c.id);
    const res = await postEntry(app, entryBody(c, paid));
    assert.equal(res.status, 409);
    assert.deepEqual(await readJsonBody(res), {
      message: "This competition no longer exists. Your payment has been refunded.",
    });
    assert.equal(await (app.services.payments as TestPaymentProvider).isRefunded(paid), true);
  });
});

Deno.test("[money] the store serialises entry and refund of one payment", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const input = (paymentId: string) => ({ ...entryBody(c, paymentId) });
    await t.step("no refund once the payment made an entry", async () => {
      const { entry } = await createEntry(app.kv, input("pi_test_entered"));
      const claim = await claimRefund(app.kv, {
        paymentIntentId: "pi_test_entered",
        competitionId: c.id,
        reason: "This competition is full.",
        amount: 1000,
        currency: "usd",
      });
      assert.ok("entry" in claim);
      assert.equal(claim.entry.id, entry.id);
      assert.equal(await getRefund(app.kv, "pi_test_entered"), null);
    });
    await t.step("no entry once the payment is set for refund", async () => {
      const claim = await claimRefund(app.kv, {
        paymentIntentId: "pi_test_refunded",
        competitionId: c.id,
        reason: "This competition is full.",
        amount: 1000,
        currency: "usd",
      });
      assert.ok("refund" in claim);
      await assert.rejects(
        () => createEntry(app.kv, input("pi_test_refunded")),
        (err: Error) => err.message === REFUNDED_REUSE,
      );
      assert.equal(await getEntryByPayment(app.kv, "pi_test_refunded"), null);
    });
  });
});
