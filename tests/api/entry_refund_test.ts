/**
 * One refund: an admin refunds a single entry with a reason (POST
 * /api/admin/competitions/:id/entries/:teamId/refund). The payment goes back once at Stripe (the
 * imitation, with the real client library), the ledger and reconcile follow, the entrant gets
 * one e-mail, the entry leaves the leaderboard and My entries shows it refunded.
 */
import assert from "node:assert/strict";
import { listAudit } from "@/lib/db/audit.ts";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import { createEntry, getEntryByTeamId } from "@/lib/db/entries.ts";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import { readLedger } from "@/lib/payments/ledger.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  type TestCompetition,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import type { FakeStripe } from "@/tests/helpers/fake_stripe.ts";
import { paidStripeCheckout, withStripeApp } from "@/tests/helpers/stripe.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

/** A paid entry made through the app (Stripe checkout, then POST /api/entries); its team id. */
async function paidEntry(
  app: TestApp,
  fake: FakeStripe,
  c: TestCompetition,
  n: number,
): Promise<{ teamId: string; intent: string }> {
  const contact = { email: `fan${n}@example.com`, teamName: `Fan ${n}` };
  const intent = await paidStripeCheckout(app, fake, c, contact);
  const res = await app.request("/api/entries", {
    method: "POST",
    json: {
      competitionId: c.id,
      ...contact,
      playerIds: validPicks(c),
      stripePaymentId: intent.id,
    },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return { teamId: (await readJsonBody(res)).teamId, intent: intent.id };
}

function refundRequest(
  app: TestApp,
  admin: Record<string, string>,
  cid: number,
  teamId: string,
  body: unknown,
) {
  return app.request(
    `/api/admin/competitions/${cid}/entries/${encodeURIComponent(teamId)}/refund`,
    { method: "POST", headers: admin, json: body },
  );
}

async function leaderboardTeams(app: TestApp, cid: number): Promise<string[]> {
  const res = await app.request(`/api/competitions/${cid}/leaderboard?limit=100`);
  assert.equal(res.status, 200);
  return (await readJsonBody<{ teamId: string }[]>(res)).map((r) => r.teamId);
}

Deno.test("[refund] an admin refunds one entry: once at the provider, in the ledger, one e-mail, off the leaderboard", async (t) => {
  await withStripeApp(async (app, fake) => {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { name: "Derby Cup", entryFee: 5, maxEntries: 3 });
    const fans: { teamId: string; intent: string }[] = [];
    for (let n = 0; n < 3; n++) fans.push(await paidEntry(app, fake, c, n));
    const [kept, refunded] = fans;
    const refundMails = async () =>
      (await listOutbox(app.kv)).filter((m) => m.subject.includes("is refunded"));

    await t.step(
      "a reason of 3 to 500 characters is required (400 on reason), nothing changes",
      async () => {
        for (const body of [{}, { reason: "  " }, { reason: "ab" }, { reason: "x".repeat(501) }]) {
          const res = await refundRequest(app, admin, c.id, refunded.teamId, body);
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.deepEqual((await readJsonBody(res)).issues[0].path, ["reason"]);
        }
        assert.equal(await getRefund(app.kv, refunded.intent), null);
        assert.equal(fake.refunds.length, 0);
      },
    );

    await t.step("an unknown entry, or one of another competition, is a 404", async () => {
      const other = await makeCompetition(app.kv);
      for (const [cid, teamId] of [[c.id, "FFT-NOPE99"], [other.id, refunded.teamId]] as const) {
        const res = await refundRequest(app, admin, cid, teamId, { reason: "Paid twice" });
        assert.equal(res.status, 404);
        await res.body?.cancel();
      }
    });

    await t.step(
      "the refund: 200, the provider refunds the payment once, the entry is refunded",
      async () => {
        const res = await refundRequest(app, admin, c.id, refunded.teamId, {
          reason: "Paid twice for the same team",
        });
        assert.equal(res.status, 200);
        const body = await readJsonBody(res);
        assert.equal(
          body.message,
          `Entry ${refunded.teamId} refunded: $5.00 back to fan1@example.com.`,
        );
        assert.equal(body.competition.entries, 2);
        assert.equal(fake.refunds.length, 1);
        assert.equal(fake.refunds[0].payment_intent, refunded.intent);
        assert.equal(fake.refunds[0].amount, 500);
        assert.equal(fake.refunds[0].metadata.reason, "Paid twice for the same team");
        const refund = (await getRefund(app.kv, refunded.intent))!;
        assert.deepEqual(
          [refund.status, refund.amount, refund.entryTeamId, refund.refundedBy],
          ["DONE", 500, refunded.teamId, "admin"],
        );
        assert.ok(refund.notifiedAt);
        const entry = (await getEntryByTeamId(app.kv, refunded.teamId))!;
        assert.ok(entry.refundedAt);
        const competition = (await getCompetition(app.kv, c.id))!;
        assert.equal(competition.currentEntries, 2, "a refunded entry no longer counts");
      },
    );

    await t.step("the entrant gets one e-mail with the reason and the amount", async () => {
      const mails = await refundMails();
      assert.equal(mails.length, 1);
      assert.equal(mails[0].to, "fan1@example.com");
      assert.equal(mails[0].subject, "Your $5.00 entry in Derby Cup is refunded");
      assert.match(mails[0].text, /has been refunded: Paid twice for the same team/);
      assert.equal(mails[0].about, `refund:${refunded.intent}`);
    });

    await t.step("the entry leaves the leaderboard; the others stay", async () => {
      const teams = await leaderboardTeams(app, c.id);
      assert.deepEqual(teams.sort(), [fans[0].teamId, fans[2].teamId].sort());
      await updateCompetition(app.kv, c.id, { status: "LIVE" });
      assert.ok(!(await leaderboardTeams(app, c.id)).includes(refunded.teamId));
    });

    await t.step("My entries shows it refunded, the kept one as it was", async () => {
      const res = await app.request(
        `/api/my-entries?teamIds=${refunded.teamId},${kept.teamId}`,
      );
      const rows = await readJsonBody<{ teamId: string; refunded: boolean; rank: number }[]>(res);
      const mine = rows.find((r) => r.teamId === refunded.teamId)!;
      const theirs = rows.find((r) => r.teamId === kept.teamId)!;
      assert.deepEqual([mine.refunded, mine.rank], [true, null]);
      assert.equal(theirs.refunded, false);
    });

    await t.step("the ledger and reconcile (also against Stripe) balance", async () => {
      const deps = app.services;
      const ledger = await readLedger(deps);
      const line = ledger.competitions.find((l) => l.competitionId === c.id)!;
      assert.deepEqual(
        [line.collected, line.refunded, line.refundsPending, line.entriesKept],
        [1500, 500, 0, 1000],
      );
      const books = await reconcile(deps, [], { provider: true });
      assert.deepEqual(books.discrepancies, []);
      assert.equal(books.pending, 0);
    });

    await t.step("the activity log has the refund with its reason", async () => {
      const [record] = await listAudit(app.kv, { competitionId: c.id, action: "Refund entry" });
      assert.ok(record, "logged");
      assert.equal(record.reason, "Paid twice for the same team");
      assert.deepEqual(record.before?.currentEntries, 3);
      assert.deepEqual(record.after?.currentEntries, 2);
    });

    await t.step("refunding it again is a 409 and refunds nothing more", async () => {
      const res = await refundRequest(app, admin, c.id, refunded.teamId, { reason: "Again" });
      assert.equal(res.status, 409);
      assert.match((await readJsonBody(res)).message, /already refunded/);
      assert.equal(fake.refunds.length, 1);
      assert.equal((await refundMails()).length, 1);
    });

    await t.step("the place it freed takes a new entry (the competition was full)", async () => {
      await updateCompetition(app.kv, c.id, { status: "UPCOMING" });
      await paidEntry(app, fake, c, 3);
      const books = await reconcile(app.services, [], { provider: true });
      assert.deepEqual(books.discrepancies, []);
    });
  });
});

Deno.test("[refund] a provider failure leaves the refund decided and the entry off; the payment sweep finishes it once", async () => {
  await withStripeApp(async (app, fake) => {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { entryFee: 4, currency: "GBP" });
    const fan = await paidEntry(app, fake, c, 0);
    fake.failRefunds = true;
    const res = await refundRequest(app, admin, c.id, fan.teamId, { reason: "A complaint" });
    assert.equal(res.status, 202);
    assert.match((await readJsonBody(res)).message, /retried automatically/);
    assert.equal((await getRefund(app.kv, fan.intent))!.status, "PENDING");
    assert.deepEqual(await leaderboardTeams(app, c.id), []);
    const pending = await reconcile(app.services);
    assert.deepEqual(pending.discrepancies, [{
      record: `entry ${fan.teamId}`,
      problem: `its refund of ${fan.intent} has not completed`,
    }]);
    assert.equal(pending.pending, 1);

    fake.failRefunds = false;
    await sweepPayments(app.services, TEST_ORIGIN);
    await sweepPayments(app.services, TEST_ORIGIN);
    const refund = (await getRefund(app.kv, fan.intent))!;
    assert.equal(refund.status, "DONE");
    assert.equal(fake.refunds.length, 1);
    const mails = (await listOutbox(app.kv)).filter((m) => m.subject.includes("is refunded"));
    assert.equal(mails.length, 1, "told once");
    const books = await reconcile(app.services, [], { provider: true });
    assert.deepEqual(books.discrepancies, []);
    assert.equal(books.pending, 0);
  });
});

Deno.test("[refund] refused with a 409: a cancelled competition, a completed one with prizes awarded, an entry not paid for", async () => {
  await withStripeApp(async (app, fake) => {
    const admin = await makeAdminHeaders(app.kv);
    const cancelled = await makeCompetition(app.kv, { entryFee: 5 });
    const a = await paidEntry(app, fake, cancelled, 0);
    const cancel = await app.request(`/api/admin/competitions/${cancelled.id}/cancel`, {
      method: "POST",
      headers: admin,
      json: { reason: "The match was postponed." },
    });
    assert.equal(cancel.status, 200);
    await cancel.body?.cancel();
    let res = await refundRequest(app, admin, cancelled.id, a.teamId, { reason: "Complaint" });
    assert.equal(res.status, 409);
    assert.match((await readJsonBody(res)).message, /already refunded/);

    const completed = await makeCompetition(app.kv, { entryFee: 5 });
    const b = await paidEntry(app, fake, completed, 0);
    await setPrizeStructure(app.kv, completed.id, [{ position: 1, prize: 8 }]);
    await updateCompetition(app.kv, completed.id, { status: "COMPLETED" });
    res = await refundRequest(app, admin, completed.id, b.teamId, { reason: "Complaint" });
    assert.equal(res.status, 409);
    assert.match((await readJsonBody(res)).message, /prizes were awarded/);

    // An entry with no payment on record (made before payments were kept, or by hand).
    const free = await makeCompetition(app.kv, { entryFee: 5 });
    const { entry } = await createEntry(app.kv, {
      competitionId: free.id,
      email: "guest@example.com",
      teamName: "Guest",
      playerIds: validPicks(free),
      stripePaymentId: "pi_free_guest",
    });
    await app.kv.delete(keys.checkout("pi_free_guest"));
    res = await refundRequest(app, admin, free.id, entry.teamId, { reason: "Complaint" });
    assert.equal(res.status, 409);
    assert.match((await readJsonBody(res)).message, /was not paid for/);

    assert.equal(fake.refunds.length, 1, "only the cancellation's refund");
    const books = await reconcile(app.services);
    assert.equal(
      books.discrepancies.filter((d) => d.record !== `entry ${entry.teamId}`).length,
      0,
      JSON.stringify(books.discrepancies),
    );
  });
});

Deno.test("[refund] the sweep finishing a cancellation's refund keeps the entry's payment record FINALISED (it made the entry)", async () => {
  await withStripeApp(async (app, fake) => {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { entryFee: 5 });
    const fan = await paidEntry(app, fake, c, 0);
    fake.failRefunds = true;
    const res = await app.request(`/api/admin/competitions/${c.id}/cancel`, {
      method: "POST",
      headers: admin,
      json: { reason: "The match was postponed." },
    });
    assert.ok([200, 202].includes(res.status));
    await res.body?.cancel();
    await waitFor("the cancellation's pass ended", async () => {
      const job = await readJsonBody(
        await app.request(`/api/admin/competitions/${c.id}/cancellation`, { headers: admin }),
      );
      return job.lastPassAt !== null;
    });
    assert.equal((await getRefund(app.kv, fan.intent))!.status, "PENDING");
    fake.failRefunds = false;
    await sweepPayments(app.services, TEST_ORIGIN);
    assert.equal((await getRefund(app.kv, fan.intent))!.status, "DONE");
    assert.equal(fake.refunds.length, 1);
    const checkout = await getPendingCheckout(app.kv, fan.intent);
    assert.deepEqual([checkout?.status, checkout?.teamId], ["FINALISED", fan.teamId]);
    const books = await reconcile(app.services, [], { provider: true });
    assert.deepEqual(books.discrepancies, []);
  });
});
