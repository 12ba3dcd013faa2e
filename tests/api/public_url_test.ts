import assert from "node:assert/strict";
import { listOutbox, type OutboxMessage } from "@/lib/db/outbox.ts";
import { type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { startFakeStripe } from "@/tests/helpers/fake_stripe.ts";
import { entryBody, makeCompetition, payTestIntent } from "@/tests/helpers/fixtures.ts";
import { paidStripeCheckout, signedEvent } from "@/tests/helpers/stripe.ts";

const PUBLIC_URL = "https://contests.example";
const EVIL = "http://evil.example";

/** Sends `init` to `path` as if the request's Host header were evil.example. */
function fromEvilHost(app: TestApp, path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("host", "evil.example");
  return app.handler(new Request(`${EVIL}${path}`, { ...init, headers }));
}

function postEntryFromEvilHost(app: TestApp, json: unknown): Promise<Response> {
  return fromEvilHost(app, "/api/entries", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });
}

/** The single confirmation e-mail of the outbox. */
async function onlyMail(app: TestApp): Promise<OutboxMessage> {
  const mails = await listOutbox(app.kv);
  assert.equal(mails.length, 1);
  return mails[0];
}

function assertLinksTo(mail: OutboxMessage, origin: string, competitionId: number): void {
  assert.ok(mail.text.includes(`${origin}/leaderboard/${competitionId}`), mail.text);
  assert.ok(mail.html?.includes(`href="${origin}/leaderboard/${competitionId}"`), mail.html ?? "");
  assert.ok(!mail.text.includes("evil.example"), mail.text);
  assert.ok(!mail.html?.includes("evil.example"), mail.html ?? "");
}

Deno.test("[public url] the confirmation e-mail links to PUBLIC_URL, not the request's host", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const res = await postEntryFromEvilHost(app, entryBody(c, await payTestIntent(app, c.id)));
    assert.equal(res.status, 201);
    const { teamId } = await res.json();
    const mail = await onlyMail(app);
    assertLinksTo(mail, PUBLIC_URL, c.id);
    assert.ok(mail.text.includes(`${PUBLIC_URL}/confirmation/${teamId}`), mail.text);
  }, { config: { publicUrl: PUBLIC_URL } });
});

Deno.test("[public url] without PUBLIC_URL the links use the start-time origin, never the request's host", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const res = await postEntryFromEvilHost(app, entryBody(c, await payTestIntent(app, c.id)));
    assert.equal(res.status, 201);
    await res.body?.cancel();
    assertLinksTo(await onlyMail(app), "http://localhost:8123", c.id);
  }, { config: { port: 8123 } });
});

Deno.test("[public url] an entry finalised by the Stripe webhook links to PUBLIC_URL", async () => {
  const fake = startFakeStripe();
  try {
    await withTestApp(async (app) => {
      const c = await makeCompetition(app.kv);
      const intent = await paidStripeCheckout(app, fake, c);
      const event = await signedEvent("payment_intent.succeeded", intent);
      const res = await fromEvilHost(app, "/api/stripe/webhook", {
        method: "POST",
        headers: { "stripe-signature": event.signature, "content-type": "application/json" },
        body: event.payload,
      });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).outcome, "finalised");
      assertLinksTo(await onlyMail(app), PUBLIC_URL, c.id);
    }, { stripe: fake, config: { publicUrl: PUBLIC_URL } });
  } finally {
    await fake.close();
  }
});
