/**
 * Stripe mode in API tests: the app against the local Stripe imitation, checkouts paid there, and
 * webhook events signed the way Stripe signs them.
 */
import Stripe from "stripe";
import { readJsonBody, TEST_WEBHOOK_SECRET, type TestApp, withTestApp } from "./app.ts";
import { type FakeIntent, type FakeStripe, startFakeStripe } from "./fake_stripe.ts";
import { type TestCompetition, validPicks } from "./fixtures.ts";

/** A webhook body and its `stripe-signature` header. */
export interface SignedEvent {
  payload: string;
  signature: string;
}

const signer = new Stripe("sk_test_signer");

/** Runs `fn` with a test app whose payments go to a fresh Stripe imitation; closes both. */
export async function withStripeApp(
  fn: (app: TestApp, fake: FakeStripe) => Promise<void>,
): Promise<void> {
  const fake = startFakeStripe();
  try {
    await withTestApp((app) => fn(app, fake), { stripe: fake });
  } finally {
    await fake.close();
  }
}

/**
 * A Stripe checkout with the picks kept for the webhook (POST /api/create-payment-intent with
 * the picks, e-mail and name), then paid at Stripe: the browser may never come back.
 */
export async function paidStripeCheckout(
  app: TestApp,
  fake: FakeStripe,
  c: TestCompetition,
  contact = { email: "jane@example.com", teamName: "Jane's Team" },
): Promise<FakeIntent> {
  const res = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId: c.id, ...contact, playerIds: validPicks(c) },
  });
  const { paymentIntentId } = await readJsonBody(res);
  return fake.succeed(paymentIntentId);
}

/** An event of `type` about `object`, signed with `secret` like Stripe does. */
export async function signedEvent(
  type: string,
  object: unknown,
  secret = TEST_WEBHOOK_SECRET,
): Promise<SignedEvent> {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID()}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
  });
  const signature = await signer.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, signature };
}

/** Delivers a signed event to POST /api/stripe/webhook. */
export function sendWebhook(app: TestApp, event: SignedEvent): Promise<Response> {
  return app.request("/api/stripe/webhook", {
    method: "POST",
    headers: { "stripe-signature": event.signature, "content-type": "application/json" },
    body: event.payload,
  });
}
