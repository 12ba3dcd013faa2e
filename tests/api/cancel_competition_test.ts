import assert from "node:assert/strict";
import { readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { makeAdminHeaders, makeCompetition, validPicks } from "@/tests/helpers/fixtures.ts";
import { paidStripeCheckout, withStripeApp } from "@/tests/helpers/stripe.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

/** The cancellation job of `cid` once a pass over every entry ended (polls its API). */
async function passEnded(app: TestApp, admin: Record<string, string>, cid: number) {
  return await waitFor("a refund pass ran", async () => {
    const res = await app.request(`/api/admin/competitions/${cid}/cancellation`, {
      headers: admin,
    });
    assert.equal(res.status, 200);
    const job = await readJsonBody(res);
    return job.lastPassAt !== null && job;
  });
}

Deno.test("[cancel] cancelling refunds every paid entry exactly once and e-mails each entrant", async (t) => {
  await withStripeApp(async (app, fake) => {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { currency: "GBP", entryFee: 3 });
    const fans = ["ann@example.com", "bob@example.com", "cat@example.com"];
    const intents: { id: string }[] = [];
    for (const [i, email] of fans.entries()) {
      const intent = await paidStripeCheckout(app, fake, c, { email, teamName: `Fan ${i}` });
      const res = await app.request("/api/entries", {
        method: "POST",
        json: {
          competitionId: c.id,
          email,
          teamName: `Fan ${i}`,
          playerIds: validPicks(c),
          stripePaymentId: intent.id,
        },
      });
      assert.equal(res.status, 201);
      await res.body?.cancel();
      intents.push(intent);
    }
    const cancel = () =>
      app.request(`/api/admin/competitions/${c.id}/cancel`, {
        method: "POST",
        headers: admin,
        json: { reason: "The match was postponed." },
      });
    const cancellationMails = async () =>
      (await listOutbox(app.kv)).filter((m) => m.subject.includes("was cancelled"));

    await t.step("a reason is required", async () => {
      const res = await app.request(`/api/admin/competitions/${c.id}/cancel`, {
        method: "POST",
        headers: admin,
        json: { reason: " " },
      });
      assert.equal(res.status, 400);
      assert.deepEqual((await readJsonBody(res)).issues[0].path, ["reason"]);
    });

    await t.step("a provider failure leaves refunds pending and nobody e-mailed", async () => {
      fake.failRefunds = true;
      const res = await cancel();
      assert.ok([200, 202].includes(res.status), "answered at once or within a moment");
      const body = await readJsonBody(res);
      assert.equal(body.competition.status, "CANCELLED");
      const job = await passEnded(app, admin, c.id);
      assert.deepEqual([job.total, job.refunded, job.pending, job.finishedAt], [3, 0, 3, null]);
      assert.equal(fake.refunds.length, 0);
      assert.equal((await cancellationMails()).length, 0);
    });

    await t.step("the retry refunds each payment once and e-mails each entrant", async () => {
      fake.failRefunds = false;
      const body = await readJsonBody(await cancel());
      assert.deepEqual([body.refunded, body.pending, body.notified], [3, 0, 3]);
      assert.equal(body.message, "Competition cancelled: 3 of 3 entries refunded.");
      assert.deepEqual(
        fake.refunds.map((r) => r.payment_intent).sort(),
        intents.map((i) => i.id).sort(),
      );
      for (const intent of intents) {
        const refund = await getRefund(app.kv, intent.id);
        assert.equal(refund?.status, "DONE");
        assert.equal(refund?.amount, 300);
        assert.equal(refund?.reason, "Competition cancelled: The match was postponed.");
      }
      const mails = await cancellationMails();
      assert.deepEqual(mails.map((m) => m.to).sort(), fans);
      assert.match(mails[0].text, /£3\.00/);
    });

    await t.step("cancelling again repeats nothing", async () => {
      const body = await readJsonBody(await cancel());
      assert.deepEqual([body.refunded, body.pending], [3, 0]);
      assert.equal(fake.refunds.length, 3);
      assert.equal((await cancellationMails()).length, 3);
    });

    await t.step("visitors see it cancelled; it takes no entries and cannot reopen", async () => {
      const pub = await readJsonBody(await app.request(`/api/competitions/${c.id}`));
      assert.equal(pub.status, "CANCELLED");
      assert.equal(pub.cancelReason, "The match was postponed.");
      const intent = await app.request("/api/create-payment-intent", {
        method: "POST",
        json: { competitionId: c.id },
      });
      assert.equal(intent.status, 409);
      await intent.body?.cancel();
      const reopen = await app.request(`/api/admin/competitions/${c.id}`, {
        method: "PUT",
        headers: admin,
        json: { ...c, status: "UPCOMING" },
      });
      assert.equal(reopen.status, 409);
      await reopen.body?.cancel();
    });

    await t.step("deleting it stays refused and points to cancelling", async () => {
      const res = await app.request(`/api/admin/competitions/${c.id}`, {
        method: "DELETE",
        headers: admin,
      });
      assert.equal(res.status, 409);
      assert.match((await readJsonBody(res)).message, /Cancel it instead/);
    });
  });
});

Deno.test("[cancel] a completed competition cannot be cancelled", async () => {
  await withStripeApp(async (app) => {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { status: "COMPLETED" });
    const res = await app.request(`/api/admin/competitions/${c.id}/cancel`, {
      method: "POST",
      headers: admin,
      json: { reason: "Too late" },
    });
    assert.equal(res.status, 409);
    assert.equal((await readJsonBody(res)).message, "A completed competition cannot be cancelled.");
  });
});
