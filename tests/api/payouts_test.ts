import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { getPayout, type Payout } from "@/lib/db/payout_records.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import { remindUnclaimed } from "@/lib/payments/payouts.ts";
import { waitFor } from "@/tests/helpers/wait.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import { makeAdminHeaders, makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

/** The claim tokens e-mailed to winners, by recipient. */
async function claimLinks(app: TestApp): Promise<Map<string, string[]>> {
  const links = new Map<string, string[]>();
  for (const mail of await listOutbox(app.kv)) {
    const token = /\/claim\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    if (!token) continue;
    links.set(mail.to, [...(links.get(mail.to) ?? []), token]);
  }
  return links;
}

const ADDRESS = {
  name: "Dee Winner",
  line1: "1 High Street",
  city: "Leeds",
  postcode: "LS1 1AA",
  country: "United Kingdom",
};

const claim = (app: TestApp, token: string, body: unknown) =>
  app.request(`/api/claim/${token}`, { method: "POST", json: body });

Deno.test("[payouts] winners are told once, claim privately, and are paid exactly once", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { name: "Prize Cup", entryFee: 5, prizePool: 90 });
    const ann = await makeEntry(app.kv, c, { email: "ann@example.com", teamName: "=SUM(A1)" });
    const bob = await makeEntry(app.kv, c, { email: "bob@example.com", teamName: "Bob" });
    const cat = await makeEntry(app.kv, c, { email: "cat@example.com", teamName: "Cat" });
    await setPrizeStructure(app.kv, c.id, [{ position: 1, prize: 90 }]);
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    await updateCompetition(app.kv, c.id, { status: "COMPLETED" });

    await t.step("every winner (three tied for 1st: $30.00 each) is e-mailed once", async () => {
      await sweepPayments(app.services, TEST_ORIGIN);
      await sweepPayments(app.services, TEST_ORIGIN);
      const links = await claimLinks(app);
      assert.deepEqual([...links.keys()].sort(), [
        "ann@example.com",
        "bob@example.com",
        "cat@example.com",
      ]);
      for (const tokens of links.values()) assert.equal(tokens.length, 1, "one e-mail each");
      const mail = (await listOutbox(app.kv)).find((m) => m.to === "bob@example.com")!;
      assert.match(mail.text, /finished 1st in Prize Cup and won \$30\.00/);
    });

    const links = await claimLinks(app);
    const [annToken, bobToken] = [
      links.get("ann@example.com")![0],
      links.get("bob@example.com")![0],
    ];
    await t.step("a claim link opens its own prize only; a wrong one is a 404", async () => {
      assert.ok(annToken.length >= 22, "128 random bits");
      const page = await app.request(`/claim/${bobToken}`);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get("cache-control"), "no-store", "a claim page is never kept");
      assert.equal(page.headers.get("referrer-policy"), "no-referrer", "nor its link passed on");
      assert.match(await page.text(), /Bob.*finished[\s\S]*1st/);
      for (const bad of ["nope", "A".repeat(22), annToken.slice(0, -1) + "x"]) {
        const res = await app.request(`/claim/${bad}`);
        assert.equal(res.status, 404, bad);
        assert.equal(res.headers.get("cache-control"), "no-store");
        assert.equal(res.headers.get("referrer-policy"), "no-referrer");
        await res.body?.cancel();
        const post = await claim(app, bad, { method: "paypal", paypalEmail: "x@example.com" });
        assert.equal(post.status, 404);
        await post.body?.cancel();
      }
    });

    await t.step(
      "the claim checks the details, stores them sealed, and can be corrected until paid",
      async () => {
        const badIban = await claim(app, annToken, {
          method: "iban",
          iban: "GB82WEST12345698765433",
          accountHolder: "Ann",
        });
        assert.equal(badIban.status, 400);
        assert.deepEqual((await readJsonBody(badIban)).issues[0].path, ["iban"]);
        const posted = await claim(app, annToken, { method: "address", address: ADDRESS });
        assert.equal(posted.status, 400, "a cash prize is not posted");
        assert.deepEqual((await readJsonBody(posted)).issues[0].path, ["method"]);
        const first = await claim(app, annToken, {
          method: "paypal",
          paypalEmail: "ann.old@example.com",
        });
        assert.equal(first.status, 200);
        assert.equal(first.headers.get("cache-control"), "no-store");
        await first.body?.cancel();
        const ok = await claim(app, annToken, {
          method: "iban",
          iban: "gb82 west 1234 5698 7654 32",
          accountHolder: "Ann Winner",
        });
        assert.equal(ok.status, 200, "corrected before it is paid");
        await ok.body?.cancel();
        const confirmations = (await listOutbox(app.kv))
          .filter((m) => m.to === "ann@example.com" && /claim|details/i.test(m.subject))
          .reverse();
        assert.deepEqual(confirmations.map((m) => m.subject), [
          "We have your claim: $30.00 from Prize Cup",
          "Your corrected details are saved: $30.00 from Prize Cup",
        ]);
        assert.match(confirmations[0].text, /PayPal a\*\*\*@example\.com/);
        assert.match(confirmations[1].text, /IBAN ending 5432/);
        assert.doesNotMatch(confirmations[1].text, /GB82WEST/, "the e-mail hides the account");
        const stored = await getPayout(app.kv, c.id, ann.id);
        assert.equal(stored?.status, "CLAIMED");
        assert.equal((await getPayout(app.kv, c.id, bob.id))?.status, "OWED", "Bob's is untouched");
        const raw = JSON.stringify(stored);
        assert.doesNotMatch(raw, /GB82WEST|Ann Winner|ann\.old/, "sealed at rest");
        const bobClaim = await claim(app, bobToken, {
          method: "paypal",
          paypalEmail: "bob.pays@example.com",
        });
        assert.equal(bobClaim.status, 200);
        await bobClaim.body?.cancel();
      },
    );

    await t.step(
      "the admin sees the details, totals per state, and records a payment once",
      async () => {
        const list = await readJsonBody(
          await app.request("/api/admin/payouts", { headers: admin }),
        );
        assert.deepEqual(list.counts, { owed: 1, claimed: 2, paid: 0, unclaimed: 0 });
        assert.deepEqual(list.totals.claimed, { usd: 6000 });
        const annRow = list.payouts.find((p: { teamId: string }) => p.teamId === ann.teamId);
        assert.deepEqual(annRow.details, {
          method: "iban",
          iban: "GB82WEST12345698765432",
          accountHolder: "Ann Winner",
        });
        const pay = (reference: string) =>
          app.request(`/api/admin/payouts/${c.id}/${ann.id}/paid`, {
            method: "POST",
            headers: admin,
            json: { reference },
          });
        const twice = await Promise.all([pay("BANK-123"), pay("BANK-123")]);
        assert.deepEqual(twice.map((r) => r.status), [200, 200]);
        const [first, second] = await Promise.all(twice.map((r) => readJsonBody(r)));
        assert.equal(first.paidAt, second.paidAt, "one payment, recorded once");
        const other = await pay("BANK-999");
        assert.equal(other.status, 409);
        await other.body?.cancel();
        const late = await claim(app, annToken, { method: "paypal", paypalEmail: "x@example.com" });
        assert.equal(late.status, 409, "paid: the details can no longer change");
        await late.body?.cancel();
        const after = await readJsonBody(
          await app.request("/api/admin/payouts", { headers: admin }),
        );
        assert.deepEqual(after.counts, { owed: 1, claimed: 1, paid: 1, unclaimed: 0 });
        assert.deepEqual(after.totals.paid, { usd: 3000 });
        const told = (await listOutbox(app.kv)).filter((m) => m.subject.startsWith("Your prize"));
        assert.deepEqual(told.map((m) => m.to), ["ann@example.com"], "told once it was paid, once");
        assert.match(told[0].text, /\$30\.00 has been paid\.\nReference: BANK-123/);
      },
    );

    await t.step("the CSV lists every payout, formulas defused", async () => {
      const anonymous = await app.request("/admin/payouts/csv");
      assert.notEqual(anonymous.status, 200, "admins only");
      await anonymous.body?.cancel();
      const res = await app.request("/admin/payouts/csv", { headers: admin });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /text\/csv/);
      const lines = (await res.text()).trim().split("\r\n");
      assert.equal(lines.length, 4);
      assert.match(lines[0], /^competition_id,competition,place,team_id/);
      assert.ok(lines.some((l) => l.startsWith(`"${c.id}","Prize Cup",`)), "named");
      assert.ok(lines.some((l) => l.includes(`"'=SUM(A1)"`)), "a formula is not a formula");
      assert.ok(lines.some((l) => l.includes("IBAN GB82WEST12345698765432 (Ann Winner)")));
    });

    await t.step("My entries says Paid; the books balance with prizes owed and paid", async () => {
      const mine = await readJsonBody(
        await app.request(`/api/my-entries?teamIds=${ann.teamId},${cat.teamId}`),
      );
      const state = (teamId: string) =>
        mine.find((m: { teamId: string }) => m.teamId === teamId).prizeState;
      assert.equal(state(ann.teamId), "paid");
      assert.equal(state(cat.teamId), "owed");
      const books = await reconcile(app.services);
      assert.deepEqual(books.discrepancies, []);
      const line = books.ledger.competitions.find((l) => l.competitionId === c.id)!;
      assert.deepEqual(
        [line.prizesAwarded, line.prizesPaid, line.prizesOwed],
        [9000, 3000, 6000],
        "owed = awarded − paid",
      );
    });

    await t.step("a paid payout that does not match its award is named by reconcile", async () => {
      const key = keys.payout(c.id, ann.id);
      const stored = (await app.kv.get<Payout>(key)).value!;
      await app.kv.set(key, { ...stored, amount: 5000 });
      const books = await reconcile(app.services);
      assert.ok(
        books.discrepancies.some((d) => d.record === `payout ${ann.teamId}`),
        JSON.stringify(books.discrepancies),
      );
      await app.kv.set(key, stored);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[payouts] a shirt is posted, the claim link reaches the winner from My entries and the find e-mail, and reminders go after 7 and 30 days", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, {
      name: "Shirt Cup",
      prizeType: "NON_CASH",
      customPrizeDescription: "Signed shirt",
    });
    const dee = await makeEntry(app.kv, c, { email: "dee@example.com", teamName: "Dee" });
    await setPrizeStructure(app.kv, c.id, [{ position: 1, prize: 1 }]);
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
    const told = new Date();
    await sweepPayments(app.services, TEST_ORIGIN, told);
    const mine = `/claim/${dee.editToken}`;

    await t.step(
      "the entry's own secret (held by its browser) opens the claim page, privately",
      async () => {
        const page = await app.request(mine);
        assert.equal(page.status, 200);
        assert.equal(page.headers.get("cache-control"), "no-store");
        assert.equal(page.headers.get("referrer-policy"), "no-referrer");
        assert.match(await page.text(), /Signed shirt/);
        const wrong = await app.request(`/claim/${"0".repeat(32)}`);
        assert.equal(wrong.status, 404);
        assert.equal(wrong.headers.get("referrer-policy"), "no-referrer");
        await wrong.body?.cancel();
      },
    );

    await t.step("the find-my-entries e-mail carries the claim link", async () => {
      const res = await app.request("/api/my-entries/email", {
        method: "POST",
        json: { email: "dee@example.com" },
      });
      assert.equal(res.status, 202);
      await res.body?.cancel();
      const mail = await waitFor(
        "the entries e-mail",
        async () =>
          (await listOutbox(app.kv)).find((m) => m.subject.startsWith("Your fantasy entries")),
      );
      assert.ok(mail.text.includes(`Claim your prize: ${TEST_ORIGIN}${mine}`), mail.text);
    });

    await t.step("reminders after 7 and 30 days, each once", async () => {
      const at = (days: number) => new Date(told.getTime() + days * 86_400_000 + 60_000);
      assert.equal(await remindUnclaimed(app.services, TEST_ORIGIN, at(6)), 0);
      assert.equal(await remindUnclaimed(app.services, TEST_ORIGIN, at(7)), 1);
      assert.equal(await remindUnclaimed(app.services, TEST_ORIGIN, at(8)), 0);
      assert.equal(await remindUnclaimed(app.services, TEST_ORIGIN, at(30)), 1);
      assert.equal(await remindUnclaimed(app.services, TEST_ORIGIN, at(45)), 0);
      const reminders = (await listOutbox(app.kv)).filter((m) => m.subject.startsWith("Reminder"));
      assert.equal(reminders.length, 2);
      assert.match(reminders[0].text, /30 days after we told you/);
      assert.ok(reminders[0].text.includes(`${TEST_ORIGIN}${mine}`), "the link works");
    });

    await t.step("a prize that is not cash takes a postal address only", async () => {
      const paypal = await claim(app, dee.editToken!, {
        method: "paypal",
        paypalEmail: "dee@example.com",
      });
      assert.equal(paypal.status, 400);
      const body = await readJsonBody(paypal);
      assert.deepEqual(body.issues[0].path, ["method"]);
      assert.match(body.issues[0].message, /postal address/);
      const posted = await claim(app, dee.editToken!, { method: "address", address: ADDRESS });
      assert.equal(posted.status, 200);
      await posted.body?.cancel();
      assert.equal((await getPayout(app.kv, c.id, dee.id))?.status, "CLAIMED");
      assert.equal(
        await remindUnclaimed(app.services, TEST_ORIGIN, new Date(Date.now() + 9e10)),
        0,
      );
    });
  } finally {
    await app.close();
  }
});
