import assert from "node:assert/strict";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { createMatch, updateMatch } from "@/lib/db/matches.ts";
import { countUndelivered, listOutbox } from "@/lib/db/outbox.ts";
import { listPayouts } from "@/lib/db/payout_records.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { advanceCompetitionStatuses } from "@/lib/db/status_clock.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { AUTO_COMPLETE_GRACE_MS } from "@/lib/domain/competition.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  type TestCompetition,
  withAdminApp,
} from "@/tests/helpers/fixtures.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

const MINUTE = 60_000;

/** The admin form's body for `c` with these changes. */
function form(c: TestCompetition, overrides: Record<string, unknown> = {}) {
  const { id: _id, players: _p, teams: _t, currentEntries: _n, createdAt: _c, ...fields } = c;
  return { ...fields, ...overrides };
}

const put = (app: TestApp, admin: Record<string, string>, id: number, body: unknown) =>
  app.request(`/api/admin/competitions/${id}`, { method: "PUT", headers: admin, json: body });

/** A competition on a match between its own two clubs, kicking off at `kickoff`. */
async function onMatch(app: TestApp, kickoff: Date, overrides = {}) {
  const c = await makeCompetition(app.kv, { deadline: kickoff.toISOString(), ...overrides });
  const match = await createMatch(app.kv, {
    homeTeamId: c.teams[0].id,
    awayTeamId: c.teams[1].id,
    league: "PREMIER_LEAGUE",
    kickoffTime: kickoff.toISOString(),
    stadium: "Ground",
  });
  await updateCompetition(app.kv, c.id, { matchId: match.id, deadline: kickoff.toISOString() });
  return { c: { ...c, matchId: match.id }, match };
}

Deno.test("[status] LIVE before kick-off and COMPLETED before a result need force and a reason", async (t) => {
  await withAdminApp(async (app, admin) => {
    const { c, match } = await onMatch(app, new Date(Date.now() + 47 * MINUTE));

    await t.step("LIVE 47 minutes early: 409 saying why, nothing saved", async () => {
      const res = await put(app, admin, c.id, form(c, { status: "LIVE" }));
      assert.equal(res.status, 409);
      const body = await readJsonBody(res);
      assert.match(body.message, /^The match kicks off in 4[67] minutes \(.* UTC\): going LIVE/);
      assert.deepEqual(body.issues[0].path, ["force"]);
      assert.equal((await getCompetition(app.kv, c.id))!.status, "UPCOMING");
    });

    await t.step("COMPLETED before kick-off: 409 saying the prizes would be awarded", async () => {
      const res = await put(app, admin, c.id, form(c, { status: "COMPLETED" }));
      assert.equal(res.status, 409);
      assert.match(
        (await readJsonBody(res)).message,
        /^The match has not kicked off yet .*: completing it now awards the prizes/,
      );
    });

    await t.step("force without a reason: 400 on reason", async () => {
      const res = await put(app, admin, c.id, form(c, { status: "LIVE", force: true }));
      assert.equal(res.status, 400);
      const body = await readJsonBody(res);
      assert.deepEqual(body.issues[0].path, ["reason"]);
    });

    await t.step(
      "force with a reason: saved, the clock stops deciding, the log says why",
      async () => {
        const res = await put(
          app,
          admin,
          c.id,
          form(c, { status: "LIVE", force: true, reason: "Kick-off brought forward" }),
        );
        assert.equal(res.status, 200);
        const saved = await readJsonBody(res);
        assert.equal(saved.status, "LIVE");
        assert.equal(saved.autoStatus, false);
        const log = await readJsonBody(
          await app.request(`/api/admin/activity?competitionId=${c.id}`, { headers: admin }),
        );
        assert.equal(log[0].action, "Change status");
        assert.equal(log[0].admin, "admin");
        assert.equal(log[0].reason, "Kick-off brought forward");
        assert.deepEqual(log[0].before, { status: "UPCOMING" });
        assert.deepEqual(log[0].after, { status: "LIVE" });
      },
    );

    await t.step("once the match has a result, COMPLETED needs no confirmation", async () => {
      const past = await onMatch(app, new Date(Date.now() - 100 * MINUTE));
      await updateMatch(app.kv, past.match.id, { homeScore: 2, awayScore: 1 });
      const res = await put(app, admin, past.c.id, form(past.c, { status: "COMPLETED" }));
      assert.equal(res.status, 200);
      assert.equal((await readJsonBody(res)).status, "COMPLETED");
      // The match is on the clock's side: LIVE after kick-off needs nothing either.
      assert.equal(match.id > 0, true);
    });
  });
});

Deno.test("[status] leaving COMPLETED withdraws unclaimed awards and tells the winners; a claim stops it", async (t) => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv, { name: "Prize Cup", entryFee: 5, prizePool: 90 });
    const entries = [
      await makeEntry(app.kv, c, { email: "ann@example.com" }),
      await makeEntry(app.kv, c, { email: "bob@example.com" }),
    ];
    await setPrizeStructure(app.kv, c.id, [{ position: 1, prize: 90 }]);
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
    await sweepPayments(app.services, TEST_ORIGIN); // winners told, claim links sent
    const firstLinks = (await listOutbox(app.kv)).filter((m) => /\/claim\//.test(m.text));
    assert.equal(firstLinks.length, 2);

    await t.step("without force: 409 saying what is withdrawn", async () => {
      const res = await put(app, admin, c.id, form(c, { status: "LIVE" }));
      assert.equal(res.status, 409);
      const body = await readJsonBody(res);
      assert.match(body.message, /withdraws the awarded prizes: 2 winners \(\$90\.00\)/);
      assert.deepEqual(body.issues[0].path, ["force"]);
      assert.equal((await listPayouts(app.kv, c.id)).length, 2, "nothing withdrawn yet");
    });

    await t.step("cancelling while awarded is refused with the reason", async () => {
      const res = await app.request(`/api/admin/competitions/${c.id}/cancel`, {
        method: "POST",
        headers: admin,
        json: { reason: "Oops" },
      });
      assert.equal(res.status, 409);
      assert.match(
        (await readJsonBody(res)).message,
        /^Prizes were awarded in this competition \(2 winners \(\$90\.00\)\): it cannot be cancelled/,
      );
    });

    await t.step("forced: payouts gone, prizes cleared, each winner e-mailed once", async () => {
      const res = await put(
        app,
        admin,
        c.id,
        form(c, { status: "LIVE", force: true, reason: "A goal was given to the wrong player." }),
      );
      assert.equal(res.status, 200);
      assert.equal((await listPayouts(app.kv, c.id)).length, 0, "the ledger owes nothing");
      for (const e of entries) {
        const entry = (await getEntryByTeamId(app.kv, e.teamId))!;
        assert.equal(entry.prize, null);
        assert.equal(entry.rank, null);
      }
      const notices = (await listOutbox(app.kv)).filter((m) => /withdrawn/.test(m.subject));
      assert.deepEqual(notices.map((m) => m.to).sort(), ["ann@example.com", "bob@example.com"]);
      assert.match(notices[0].text, /A goal was given to the wrong player\./);
      assert.match(notices[0].text, /\$45\.00 \(1st place\)/);
      const token = /\/claim\/([A-Za-z0-9_-]+)/.exec(firstLinks[0].text)![1];
      const old = await app.request(`/claim/${token}`);
      assert.equal(old.status, 404, "the old claim link no longer works");
      await old.body?.cancel();
    });

    await t.step(
      "completed again, then one prize claimed: leaving COMPLETED is refused",
      async () => {
        await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
        await sweepPayments(app.services, TEST_ORIGIN);
        const links = (await listOutbox(app.kv)).filter((m) => /\/claim\//.test(m.text));
        assert.equal(links.length, 4, "a new link for each winner");
        const token = /\/claim\/([A-Za-z0-9_-]+)/.exec(links[0].text)![1];
        const claim = await app.request(`/api/claim/${token}`, {
          method: "POST",
          json: { method: "paypal", paypalEmail: "ann@example.com" },
        });
        assert.equal(claim.status, 200);
        await claim.body?.cancel();
        const res = await put(
          app,
          admin,
          c.id,
          form(c, { status: "LIVE", force: true, reason: "Try again" }),
        );
        assert.equal(res.status, 409);
        assert.match((await readJsonBody(res)).message, /1 claimed prize already/);
        assert.equal((await getCompetition(app.kv, c.id))!.status, "COMPLETED");
        assert.equal((await listPayouts(app.kv, c.id)).length, 2);
      },
    );
  });
});

Deno.test("[status] an automatic competition goes LIVE at kick-off and COMPLETED after its result", async (t) => {
  await withAdminApp(async (app, admin) => {
    const kickoff = new Date(Date.now() + 10 * MINUTE);
    const { c, match } = await onMatch(app, kickoff);
    const manual = await onMatch(app, kickoff);
    await updateCompetition(app.kv, c.id, { autoStatus: true });
    await setPrizeStructure(app.kv, c.id, [{ position: 1, prize: 100 }]);
    await makeEntry(app.kv, c, { email: "zoe@example.com" });

    await t.step("before kick-off nothing moves", async () => {
      assert.deepEqual(await advanceCompetitionStatuses(app.kv), { live: 0, completed: 0 });
      assert.equal((await getCompetition(app.kv, c.id))!.status, "UPCOMING");
    });

    const afterKickoff = new Date(kickoff.getTime() + MINUTE);
    await t.step("at kick-off: LIVE once, however often the job runs", async () => {
      const [a, b] = await Promise.all([
        advanceCompetitionStatuses(app.kv, afterKickoff),
        advanceCompetitionStatuses(app.kv, afterKickoff),
      ]);
      assert.equal(a.live + b.live, 1);
      assert.equal((await getCompetition(app.kv, c.id))!.status, "LIVE");
      assert.equal(
        (await getCompetition(app.kv, manual.c.id))!.status,
        "UPCOMING",
        "not automatic",
      );
    });

    await t.step(
      "a new competition from the API is automatic; the form can turn it off",
      async () => {
        const body = { ...form(c), matchId: match.id, status: "UPCOMING" };
        delete (body as { autoStatus?: boolean }).autoStatus;
        const res = await app.request("/api/admin/competitions", {
          method: "POST",
          headers: admin,
          json: { ...body, name: "Fresh Cup" },
        });
        assert.equal(res.status, 201);
        assert.equal((await readJsonBody(res)).autoStatus, true);
        const off = await app.request("/api/admin/competitions", {
          method: "POST",
          headers: admin,
          json: { ...body, name: "Hand Cup", autoStatus: false },
        });
        assert.equal((await readJsonBody(off)).autoStatus, false);
      },
    );

    await t.step("the result saved: COMPLETED after the grace period, prizes awarded", async () => {
      // Scores can be saved once the match has kicked off; move it into the past for that.
      const past = new Date(Date.now() - 100 * MINUTE).toISOString();
      await updateMatch(app.kv, match.id, { kickoffTime: past });
      const saved = await app.request(`/api/admin/matches/${match.id}`, {
        method: "PUT",
        headers: admin,
        json: {
          homeTeamId: match.homeTeamId,
          awayTeamId: match.awayTeamId,
          league: match.league,
          kickoffTime: past,
          stadium: match.stadium,
          homeScore: 1,
          awayScore: 0,
        },
      });
      assert.equal(saved.status, 200);
      const resultSavedAt = (await readJsonBody(saved)).resultSavedAt;
      assert.ok(resultSavedAt, "the result's time is kept");
      assert.equal((await getCompetition(app.kv, c.id))!.status, "LIVE", "in its grace period");
      const later = new Date(Date.parse(resultSavedAt) + AUTO_COMPLETE_GRACE_MS + 1000);
      // This one and "Fresh Cup" (automatic, on the same match) complete; "Hand Cup" does not.
      assert.deepEqual(await advanceCompetitionStatuses(app.kv, later), { live: 0, completed: 2 });
      assert.equal((await getCompetition(app.kv, c.id))!.status, "COMPLETED");
      assert.equal((await listPayouts(app.kv, c.id)).length, 1, "the prize is awarded");
      assert.deepEqual(await advanceCompetitionStatuses(app.kv, later), { live: 0, completed: 0 });
      const log = await readJsonBody(
        await app.request(`/api/admin/activity?competitionId=${c.id}&admin=system`, {
          headers: admin,
        }),
      );
      assert.deepEqual(
        log.map((e: { after: { status: string } }) => e.after.status),
        ["COMPLETED", "LIVE"],
      );
      assert.equal(log[0].reason, "The match result was saved.");
    });
  });
});

Deno.test("[activity] every admin write is logged once, filterable, on the competition and as CSV", async (t) => {
  await withAdminApp(async (app, admin) => {
    const created = await app.request("/api/admin/competitions", {
      method: "POST",
      headers: admin,
      json: {
        name: "Audit Cup",
        league: "PREMIER_LEAGUE",
        entryFee: "10",
        prizePool: "100",
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    assert.equal(created.status, 201);
    const { id } = await readJsonBody(created);
    const prizes = await app.request(`/api/admin/competitions/${id}/prizes`, {
      method: "POST",
      headers: admin,
      json: [{ position: 1, prize: 100 }],
    });
    assert.equal(prizes.status, 200);
    await prizes.body?.cancel();
    const refused = await app.request(`/api/admin/competitions/${id}/prizes`, {
      method: "POST",
      headers: admin,
      json: [],
    });
    assert.equal(refused.status, 400);
    await refused.body?.cancel();

    await t.step(
      "API: newest first, who and what, before → after, refused writes left out",
      async () => {
        const log = await readJsonBody(
          await app.request(`/api/admin/activity?competitionId=${id}`, { headers: admin }),
        );
        assert.deepEqual(log.map((e: { action: string }) => e.action), [
          "Save prizes",
          "Create competition",
        ]);
        assert.deepEqual(log[0].before, { prizes: [] });
        assert.deepEqual(log[0].after, { prizes: [{ position: 1, prize: 100 }] });
        assert.equal(log[1].after.name, "Audit Cup");
        const byAction = await readJsonBody(
          await app.request("/api/admin/activity?action=Save%20prizes", { headers: admin }),
        );
        assert.equal(byAction.length, 1);
        const none = await readJsonBody(
          await app.request("/api/admin/activity?to=2000-01-01", { headers: admin }),
        );
        assert.deepEqual(none, []);
      },
    );

    await t.step("the log is append-only: a record's key is never written twice", async () => {
      let count = 0;
      for await (const _ of app.kv.list({ prefix: keys.audits() })) count++;
      assert.equal(count, 2);
    });

    await t.step("screens: the Activity page, the competition's edit page, the CSV", async () => {
      const page = await app.request(`/admin/activity?competitionId=${id}`, { headers: admin });
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /<h1[^>]*>Activity<\/h1>/);
      assert.match(html, /Save prizes[\s\S]*prizes: \[\] → \[\{&quot;position&quot;:1/);
      assert.match(html, /href="\/admin\/activity\/csv\?competitionId=\d+"/);
      const edit = await (await app.request(`/admin/competitions/edit/${id}`, { headers: admin }))
        .text();
      assert.match(edit, /Activity of this competition/);
      assert.match(edit, /Create competition/);
      const csv = await app.request(`/admin/activity/csv?competitionId=${id}`, { headers: admin });
      assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
      const lines = (await csv.text()).trim().split("\r\n");
      assert.equal(lines[0], "time,admin,action,competition,changes,reason,request");
      assert.equal(lines.length, 3, "a header and one line per record");
    });
  });
});

Deno.test("[status] with SMTP the prize-withdrawn notices are sent, not only kept in the outbox", async () => {
  const smtp = await startTestSmtp();
  const app = await makeTestApp({ smtpUrl: smtp.url });
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { name: "Mail Cup", entryFee: 5, prizePool: 40 });
    await makeEntry(app.kv, c, { email: "ann@example.com" });
    await makeEntry(app.kv, c, { email: "bob@example.com" });
    await setPrizeStructure(app.kv, c.id, [{ position: 1, prize: 40 }]);
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
    await sweepPayments(app.services, TEST_ORIGIN); // winners told (and their mail sent)
    const withdrawn = () => smtp.messages.filter((m) => /withdrawn/.test(m.raw));
    assert.equal(withdrawn().length, 0);

    const res = await put(
      app,
      admin,
      c.id,
      form(c, { status: "LIVE", force: true, reason: "The result was entered twice." }),
    );
    assert.equal(res.status, 200);
    await res.body?.cancel();
    assert.deepEqual(withdrawn().flatMap((m) => m.to).sort(), [
      "ann@example.com",
      "bob@example.com",
    ]);
    assert.equal(await countUndelivered(app.kv), 0, "nothing left waiting for SMTP");
    await sweepPayments(app.services, TEST_ORIGIN);
    assert.equal(withdrawn().length, 2, "each sent once");
  } finally {
    await app.close();
    await smtp.close();
  }
});
