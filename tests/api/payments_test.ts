import assert from "node:assert/strict";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { withStripeApp } from "@/tests/helpers/stripe.ts";
import {
  makeTestApp,
  readJsonBody,
  TEST_STRIPE_PUBLISHABLE_KEY,
  type TestApp,
} from "@/tests/helpers/app.ts";
import {
  DECLINED_CARD,
  entryBody,
  makeCompetition,
  makeEntry,
  SUCCESS_CARD,
  validPicks,
} from "@/tests/helpers/fixtures.ts";

const HOUR = 3_600_000;

function createIntent(app: TestApp, json: unknown) {
  return app.request("/api/create-payment-intent", { method: "POST", json });
}

function confirm(app: TestApp, paymentIntentId: string, cardNumber: string) {
  return app.request("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber },
  });
}

Deno.test("[payments] test mode: an intent for the entry fee in minor units", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { entryFee: 12.35, currency: "GBP" }, {
      players: false,
    });
    const res = await createIntent(app, { competitionId: c.id });
    assert.equal(res.status, 200);
    const body = await readJsonBody(res);
    assert.match(body.paymentIntentId, /^pi_test_[0-9a-f]+$/);
    assert.ok(body.clientSecret.startsWith(`${body.paymentIntentId}_secret_`));
    assert.equal(body.applePayAvailable, false);
    assert.equal(body.mode, "test");
    assert.equal(body.publishableKey, null);
    assert.equal(body.amount, 1235);
    assert.equal(body.currency, "gbp");
    const intent = await app.services.payments.retrieveIntent(body.paymentIntentId);
    assert.equal(intent?.status, "requires_payment_method");
    assert.deepEqual(intent?.metadata, { competitionId: String(c.id) });
  } finally {
    await app.close();
  }
});

Deno.test("[payments] no intent for a closed, past-deadline, full or unknown competition", async (t) => {
  const app = await makeTestApp();
  try {
    const cases: [string, Parameters<typeof makeCompetition>[1], string][] = [
      ["LIVE", { status: "LIVE" }, "This competition is closed for entries."],
      ["COMPLETED", { status: "COMPLETED" }, "This competition is closed for entries."],
      [
        "deadline passed",
        { deadline: new Date(Date.now() - HOUR).toISOString() },
        "The entry deadline has passed.",
      ],
    ];
    for (const [label, overrides, message] of cases) {
      await t.step(label, async () => {
        const c = await makeCompetition(app.kv, overrides, { players: false });
        const res = await createIntent(app, { competitionId: c.id });
        assert.equal(res.status, 409);
        assert.deepEqual(await readJsonBody(res), { message });
      });
    }
    await t.step("full", async () => {
      const c = await makeCompetition(app.kv, { maxEntries: 1 });
      await makeEntry(app.kv, c);
      const res = await createIntent(app, { competitionId: c.id });
      assert.equal(res.status, 409);
      assert.deepEqual(await readJsonBody(res), { message: "This competition is full." });
    });
    await t.step("unknown → 404", async () => {
      const res = await createIntent(app, { competitionId: 999 });
      assert.equal(res.status, 404);
      assert.deepEqual(await readJsonBody(res), { message: "Competition not found" });
    });
    await t.step("no competition id → 400", async () => {
      const res = await createIntent(app, {});
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Competition is required");
    });
  } finally {
    await app.close();
  }
});

Deno.test("[payments] picks given with the intent are checked and kept as a pending checkout", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    await t.step("a valid team is kept", async () => {
      const res = await createIntent(app, {
        competitionId: c.id,
        email: "jane@example.com",
        teamName: "Jane's Team",
        playerIds: validPicks(c),
      });
      assert.equal(res.status, 200);
      const { paymentIntentId } = await readJsonBody(res);
      const checkout = await getPendingCheckout(app.kv, paymentIntentId);
      assert.equal(checkout?.status, "PENDING");
      assert.deepEqual(checkout?.playerIds, validPicks(c));
      assert.equal(checkout?.amount, 1000);
    });
    await t.step("a team breaking a rule is refused before anyone pays", async () => {
      const defenders = c.players.filter((p) => p.position === "DEF").map((p) => p.id);
      const mids = c.players.filter((p) => p.position === "MID").map((p) => p.id);
      const res = await createIntent(app, {
        competitionId: c.id,
        playerIds: [...defenders, ...mids, c.players[0].id].slice(0, 5),
      });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "You must select at least 1 goalkeeper.");
    });
    await t.step("a player of another competition is refused", async () => {
      const other = await makeCompetition(app.kv);
      const res = await createIntent(app, {
        competitionId: c.id,
        playerIds: validPicks(other),
      });
      assert.equal(res.status, 400);
      assert.equal(
        (await readJsonBody(res)).message,
        "Some selected players are not part of this competition.",
      );
    });
    await t.step("the display-name rule applies", async () => {
      const res = await createIntent(app, { competitionId: c.id, teamName: "J" });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Display name must be at least 2 characters");
    });
  } finally {
    await app.close();
  }
});

Deno.test("[payments] test card confirmation", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, {}, { players: false });
    const open = async () =>
      (await readJsonBody(await createIntent(app, { competitionId: c.id }))).paymentIntentId;

    await t.step("4242 4242 4242 4242 succeeds", async () => {
      const id = await open();
      const res = await confirm(app, id, SUCCESS_CARD);
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), { status: "succeeded" });
      assert.equal((await app.services.payments.retrieveIntent(id))?.status, "succeeded");
      const again = await confirm(app, id, "4242424242424242");
      assert.equal(again.status, 200);
      await again.body?.cancel();
    });
    await t.step("4000 0000 0000 0002 is declined with 402", async () => {
      const id = await open();
      const res = await confirm(app, id, DECLINED_CARD);
      assert.equal(res.status, 402);
      assert.deepEqual(await readJsonBody(res), { message: "Your card was declined." });
      assert.equal(
        (await app.services.payments.retrieveIntent(id))?.status,
        "requires_payment_method",
      );
    });
    await t.step("a number failing Luhn is a 400", async () => {
      const id = await open();
      const res = await confirm(app, id, "4242 4242 4242 4241");
      assert.equal(res.status, 400);
      assert.deepEqual(await readJsonBody(res), {
        message: "Your card number is invalid.",
        issues: [{ path: ["cardNumber"], message: "Your card number is invalid." }],
      });
    });
    await t.step("missing fields are 400 with their messages", async () => {
      const res = await app.request("/api/test-payments/confirm", {
        method: "POST",
        json: { paymentIntentId: "pi_test_x" },
      });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Card number is required");
    });
    await t.step("an unknown intent is a 404", async () => {
      const res = await confirm(app, "pi_test_nope", SUCCESS_CARD);
      assert.equal(res.status, 404);
      assert.deepEqual(await readJsonBody(res), { message: "Payment not found" });
    });
  } finally {
    await app.close();
  }
});

Deno.test("[payments] test provider refunds once and remembers it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const provider = new TestPaymentProvider(kv);
    const intent = await provider.createIntent({ amount: 500, currency: "USD", metadata: {} });
    assert.equal(intent.currency, "usd");
    await provider.confirm(intent.id, SUCCESS_CARD);
    assert.equal(await provider.isRefunded(intent.id), false);
    await provider.refund(intent.id, "full");
    await provider.refund(intent.id, "again");
    assert.equal(await provider.isRefunded(intent.id), true);
    assert.equal(await provider.retrieveIntent("pi_test_unknown"), null);
  } finally {
    kv.close();
  }
});

Deno.test("[payments] Stripe mode talks to Stripe and hides the test route", async (t) => {
  await withStripeApp(async (app, fake) => {
    const c = await makeCompetition(app.kv, { entryFee: 5 });
    let paymentIntentId = "";
    await t.step("the intent comes from Stripe with automatic payment methods", async () => {
      const res = await createIntent(app, { competitionId: c.id });
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      assert.equal(body.mode, "stripe");
      assert.equal(body.applePayAvailable, true);
      assert.equal(body.publishableKey, TEST_STRIPE_PUBLISHABLE_KEY);
      assert.equal(body.amount, 500);
      paymentIntentId = body.paymentIntentId;
      const stored = fake.intents.get(paymentIntentId)!;
      assert.equal(stored.client_secret, body.clientSecret);
      assert.deepEqual(stored.automatic_payment_methods, { enabled: true });
      assert.deepEqual(stored.metadata, { competitionId: String(c.id) });
      assert.equal(stored.currency, "usd");
    });
    await t.step("POST /api/test-payments/confirm does not exist", async () => {
      const res = await confirm(app, paymentIntentId, SUCCESS_CARD);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    });
    await t.step("an unpaid intent cannot make an entry (402)", async () => {
      const res = await app.request("/api/entries", {
        method: "POST",
        json: entryBody(c, paymentIntentId),
      });
      assert.equal(res.status, 402);
      assert.match((await readJsonBody(res)).message, /not been completed/);
    });
    await t.step("once Stripe says succeeded, the entry is created", async () => {
      fake.succeed(paymentIntentId);
      const res = await app.request("/api/entries", {
        method: "POST",
        json: entryBody(c, paymentIntentId),
      });
      assert.equal(res.status, 201);
      assert.match((await readJsonBody(res)).teamId, /^FFT-/);
      assert.ok(fake.requests.includes(`GET /v1/payment_intents/${paymentIntentId}`));
    });
    await t.step("an intent unknown to Stripe is a 402", async () => {
      const res = await app.request("/api/entries", {
        method: "POST",
        json: entryBody(c, "pi_does_not_exist"),
      });
      assert.equal(res.status, 402);
      assert.match((await readJsonBody(res)).message, /Payment not found/);
    });
    await t.step("refunds go to Stripe once", async () => {
      await app.services.payments.refund(paymentIntentId, "test");
      await app.services.payments.refund(paymentIntentId, "test");
      assert.equal(fake.refunds.filter((r) => r.payment_intent === paymentIntentId).length, 1);
    });
  });
});
