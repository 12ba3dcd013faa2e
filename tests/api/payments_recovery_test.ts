/**
 * Recovery without the browser: the sweep turns every paid checkout whose browser never
 * came back into its entry, or its refund when it cannot be one, and finishes pending refunds; the
 * admin sees each payment's state and a count per state (GET /api/admin/payments).
 */
import assert from "node:assert/strict";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import { getEntryByPayment, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { takeLease } from "@/lib/store/leases.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { listPayments } from "@/lib/payments/ledger.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import { SWEEP_GRACE_MS } from "@/lib/payments/sweep.ts";
import { readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  loginCookie,
  makeAdminHeaders,
  makeCompetition,
  makeFinalisedCheckout,
  SUCCESS_CARD,
  type TestCompetition,
  validPicks,
  withAdminApp,
} from "@/tests/helpers/fixtures.ts";
import { paidStripeCheckout, withStripeApp } from "@/tests/helpers/stripe.ts";

/** A test-mode checkout with the picks kept, paid with the test card; `pay: false` leaves it unpaid. */
async function paidTestCheckout(app: TestApp, c: TestCompetition, pay = true): Promise<string> {
  const res = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: {
      competitionId: c.id,
      email: "lost@example.com",
      teamName: "Lost Browser",
      playerIds: validPicks(c),
    },
  });
  const { paymentIntentId } = await readJsonBody(res);
  if (!pay) return paymentIntentId;
  const confirm = await app.request("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber: SUCCESS_CARD },
  });
  assert.equal(confirm.status, 200);
  await confirm.body?.cancel();
  return paymentIntentId;
}

const later = () => new Date(Date.now() + SWEEP_GRACE_MS + 1000);

async function paymentsReport(app: TestApp, admin: Record<string, string>, query = "") {
  const res = await app.request(`/api/admin/payments${query}`, { headers: admin });
  assert.equal(res.status, 200);
  return await readJsonBody(res);
}

Deno.test("[recovery] a paid checkout whose browser never came back becomes its entry", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    const paid = await paidTestCheckout(app, c);
    const unpaid = await paidTestCheckout(app, c, false);
    assert.equal((await paymentsReport(app, admin)).counts.pending, 1);

    const young = await sweepPayments(app.services, TEST_ORIGIN);
    assert.deepEqual(
      young,
      { finalised: 0, refunded: 0, expired: 0, failed: 0 },
      "left to its browser at first",
    );
    const report = await sweepPayments(app.services, TEST_ORIGIN, later());
    assert.deepEqual(report, { finalised: 1, refunded: 0, expired: 0, failed: 0 });

    const entry = await getEntryByPayment(app.kv, paid);
    assert.equal(entry?.teamName, "Lost Browser");
    assert.equal((await getPendingCheckout(app.kv, paid))?.status, "FINALISED");
    assert.equal(await getEntryByPayment(app.kv, unpaid), null);

    const body = await paymentsReport(app, admin);
    assert.deepEqual(body.counts, { entry: 1, refunded: 0, pending: 0, unpaid: 1 });
    const entries = await paymentsReport(app, admin, "?status=entry");
    assert.deepEqual(entries.payments.map((p: { teamId: string }) => p.teamId), [entry?.teamId]);
    assert.equal(entries.payments[0].state, "entry");
    assert.equal(entries.payments[0].email, "lost@example.com", "the admin sees who paid");

    // The browser coming back late gets the same entry, never a second one.
    const late = await app.request("/api/entries", {
      method: "POST",
      json: { ...entryBody(c, paid), email: "lost@example.com", teamName: "Lost Browser" },
    });
    assert.equal(late.status, 200);
    assert.equal((await readJsonBody(late)).teamId, entry?.teamId);
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
  });
});

Deno.test("[recovery] a paid checkout for a full competition is refunded by the sweep", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv, { maxEntries: 1 });
    const first = await paidTestCheckout(app, c);
    const second = await paidTestCheckout(app, c);
    const report = await sweepPayments(app.services, TEST_ORIGIN, later());
    assert.deepEqual(report, { finalised: 1, refunded: 1, expired: 0, failed: 0 });
    const refunded = (await getEntryByPayment(app.kv, first)) ? second : first;
    assert.equal((await getRefund(app.kv, refunded))?.status, "DONE");
    assert.equal((await getPendingCheckout(app.kv, refunded))?.status, "REFUNDED");
    const body = await paymentsReport(app, admin);
    assert.deepEqual(body.counts, { entry: 1, refunded: 1, pending: 0, unpaid: 0 });
    const listed = await paymentsReport(app, admin, "?status=refunded");
    assert.deepEqual(listed.payments.map((p: { paymentIntentId: string }) => p.paymentIntentId), [
      refunded,
    ]);
    assert.equal(listed.payments[0].refundReason, "This competition is full.");
    // A second sweep finds nothing left to do.
    assert.deepEqual(await sweepPayments(app.services, TEST_ORIGIN, later()), {
      finalised: 0,
      refunded: 0,
      expired: 0,
      failed: 0,
    });
  });
});

Deno.test("[recovery] Stripe without webhook: the sweep finishes a refund the provider refused", async () => {
  await withStripeApp(async (app, fake) => {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { maxEntries: 1 });
    const first = await paidStripeCheckout(app, fake, c);
    const second = await paidStripeCheckout(app, fake, c);
    const res = await app.request("/api/entries", { method: "POST", json: entryBody(c, first.id) });
    assert.equal(res.status, 201);
    await res.body?.cancel();
    fake.failRefunds = true;
    const failing = await sweepPayments(app.services, TEST_ORIGIN, later());
    assert.deepEqual(failing, { finalised: 0, refunded: 0, expired: 0, failed: 1 });
    assert.equal((await getRefund(app.kv, second.id))?.status, "PENDING");
    assert.equal((await paymentsReport(app, admin)).counts.pending, 1);

    fake.failRefunds = false;
    const report = await sweepPayments(app.services, TEST_ORIGIN, later());
    assert.deepEqual(report, { finalised: 0, refunded: 1, expired: 0, failed: 0 });
    assert.deepEqual(fake.refunds.map((r) => r.payment_intent), [second.id]);
    assert.equal((await getPendingCheckout(app.kv, second.id))?.status, "REFUNDED");
    assert.deepEqual((await paymentsReport(app, admin)).counts, {
      entry: 1,
      refunded: 1,
      pending: 0,
      unpaid: 0,
    });
  });
});

Deno.test("[recovery] GET /api/admin/payments: admin only, and a bad status is a 400", async () => {
  await withAdminApp(async (app, admin) => {
    const anonymous = await app.request("/api/admin/payments");
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const bad = await app.request("/api/admin/payments?status=lost", { headers: admin });
    assert.equal(bad.status, 400);
    const body = await readJsonBody(bad);
    assert.deepEqual(body.issues[0].path, ["status"]);
    assert.match(body.issues[0].message, /entry, refunded, pending, unpaid/);
  });
});

Deno.test("[recovery] one sweep lease at a time; it lapses when its holder stops renewing", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const now = Date.now();
    assert.equal(await takeLease(kv, "sweep", "a", 1000, now), true);
    assert.equal(await takeLease(kv, "sweep", "b", 1000, now + 10), false);
    assert.equal(await takeLease(kv, "sweep", "a", 1000, now + 500), true, "renewed by its holder");
    assert.equal(await takeLease(kv, "sweep", "b", 1000, now + 1400), false);
    assert.equal(await takeLease(kv, "sweep", "b", 1000, now + 1600), true, "taken over");
  } finally {
    kv.close();
  }
});

Deno.test("[recovery] the admin Payments screen lists each payment with its state", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { maxEntries: 1 });
    await paidTestCheckout(app, c);
    await paidTestCheckout(app, c);
    await paidTestCheckout(app, c, false);
    await sweepPayments(app.services, TEST_ORIGIN, later());
    const cookie = await loginCookie(app);
    const res = await app.request("/admin/payments", { headers: { cookie } });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<h1[^>]*>Payments<\/h1>/);
    for (const [state, count] of [["entry", 1], ["refunded", 1], ["pending", 0], ["unpaid", 1]]) {
      assert.match(html, new RegExp(`data-count="${state}"[^>]*>${count}<`));
    }
    assert.match(html, /FFT-[A-Z2-9]{8}/, "the entry's team ID");
    assert.match(html, /This competition is full\./, "why it was refunded");
    const filtered = await (await app.request("/admin/payments?status=unpaid", {
      headers: { cookie },
    })).text();
    assert.doesNotMatch(filtered, /FFT-[A-Z2-9]{8}/);
    assert.match(filtered, /Unpaid/);
    const anonymous = await app.request("/admin/payments");
    assert.equal(anonymous.status, 303);
    await anonymous.body?.cancel();
  });
});

/** `n` payments that made entries, as their checkouts record them (ids pi_page_000 …). */
async function finalisedCheckouts(kv: Deno.Kv, competitionId: number, n: number) {
  for (let i = 0; i < n; i++) {
    await makeFinalisedCheckout(
      kv,
      `pi_page_${String(i).padStart(3, "0")}`,
      `FFT-PAGE${String(i).padStart(4, "0")}`,
      { competitionId, email: "pager@example.com", teamName: `Pager ${i}`, amount: 500 },
    );
  }
}

Deno.test("[recovery] payments are paged: every payment once, in pages of the limit", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv);
    await finalisedCheckouts(app.kv, c.id, 5);
    const unpaid = await paidTestCheckout(app, c, false);
    const seen: string[] = [];
    let offset = 0;
    let pages = 0;
    for (;;) {
      const page = await listPayments(app.services, {
        status: null,
        competitionId: null,
        search: "",
        sort: "payment",
        descending: false,
        offset,
        limit: 2,
      });
      assert.ok(page.payments.length <= 2);
      seen.push(...page.payments.map((p) => p.paymentIntentId));
      pages++;
      if (page.next === null) break;
      offset = Number(page.next);
    }
    assert.equal(pages, 3, "2 + 2 + 2 payments");
    assert.deepEqual(seen, [...[0, 1, 2, 3, 4].map((i) => `pi_page_00${i}`), unpaid]);
  });
});

Deno.test("[recovery] the Payments screen and API page through 200 entries a page", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    await finalisedCheckouts(app.kv, c.id, 201);
    const first = await paymentsReport(app, admin, "?status=entry&sort=payment");
    assert.equal(first.payments.length, 200);
    assert.equal(typeof first.next, "string");
    const second = await paymentsReport(
      app,
      admin,
      `?status=entry&sort=payment&cursor=${encodeURIComponent(first.next)}`,
    );
    assert.deepEqual(second.payments.map((p: { teamId: string }) => p.teamId), ["FFT-PAGE0200"]);
    assert.equal(second.next, null);

    const cookie = await loginCookie(app);
    const html = await (await app.request("/admin/payments?sort=payment&dir=asc", {
      headers: { cookie },
    })).text();
    const next = /href="([^"]*cursor=[^"]*)"[^>]*>Next page</.exec(html)?.[1];
    assert.ok(next, "a Next page link");
    assert.doesNotMatch(html, />First page</);
    const page2 = await (await app.request(next.replaceAll("&amp;", "&"), {
      headers: { cookie },
    })).text();
    assert.match(page2, /FFT-PAGE0200/);
    assert.match(page2, />First page</);
    assert.doesNotMatch(page2, />Next page</);

    for (const cursor of ["!!", "garbage", "x".repeat(2000), "-1"]) {
      const bad = await app.request(`/api/admin/payments?cursor=${cursor}`, { headers: admin });
      assert.equal(bad.status, 400, cursor.slice(0, 10));
      assert.deepEqual((await readJsonBody(bad)).issues[0].path, ["cursor"]);
      const page = await app.request(`/admin/payments?cursor=${cursor}`, { headers: { cookie } });
      assert.equal(page.status, 400);
      await page.body?.cancel();
    }
  });
});
