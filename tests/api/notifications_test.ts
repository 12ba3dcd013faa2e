/**
 * Notifications a person asked for: opt-ins at checkout and on My entries with their consent
 * time, the deadline reminder once 1 hour before, the result once, the one-click unsubscribe
 * (RFC 8058) without login, nothing more for a bounced address, and browser push through a local
 * push service (real encryption and VAPID, checked there) with a 410 removing the subscription.
 */
import assert from "node:assert/strict";
import { createEntry } from "@/lib/db/entries.ts";
import type { Entry, EventType } from "@/lib/domain/types.ts";
import { createGameEvent, deleteGameEvent, listGameEvents } from "@/lib/db/events.ts";
import { getPerformancesMap } from "@/lib/db/performances.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { listOutbox, type OutboxMessage } from "@/lib/db/outbox.ts";
import {
  advancePushQueue,
  bouncedAt,
  getNotifyPrefs,
  listPushQueue,
  scoredTag,
  setNotifyPrefs,
} from "@/lib/db/notifications.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import { drainPushQueue, REMINDER_BEFORE_MS, runNotifications } from "@/lib/notify/run.ts";
import { unsubscribeToken } from "@/lib/notify/secrets.ts";
import { createNotifyState } from "@/lib/notify/state.ts";
import webpush from "web-push";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  payTestIntent,
  startMatch,
  type TestCompetition,
  validPicks,
  validTeams,
} from "@/tests/helpers/fixtures.ts";
import { feedSender } from "@/tests/helpers/feed.ts";
import { LOCAL_PUSH, startTestPushService, subscribeEntry } from "@/tests/helpers/push_service.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

/** Pays and makes an entry through the API, as the checkout does; its edit token. */
async function checkoutEntry(app: TestApp, c: TestCompetition): Promise<string> {
  const paymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", { method: "POST", json: entryBody(c, paymentId) });
  assert.equal(res.status, 201);
  return (await readJsonBody(res)).editToken;
}

/** The settings of `token`, changed (with `json`) from My entries or the page `from`. */
function settings(app: TestApp, token: string, json?: unknown, from?: string) {
  const path = `/api/notifications/${token}${from ? `/${from}` : ""}`;
  return app.request(path, json ? { method: "PUT", json } : {});
}

const notices = async (app: TestApp, about: string): Promise<OutboxMessage[]> =>
  (await listOutbox(app.kv)).filter((m) => m.about?.startsWith(`notify:${about}`));

Deno.test("[notifications] a GOAL over many pages of settings reaches every holder once", async () => {
  const app = await makeTestApp({ config: LOCAL_PUSH });
  const push = startTestPushService();
  try {
    const c = await makeCompetition(app.kv);
    const scorer = validPicks(c)[4];
    const withoutScorer = validTeams(c).find((team) => !team.includes(scorer))!;
    const holders = new Set<string>();
    const others = new Set<string>();
    for (let i = 0; i < 11; i++) {
      const holds = i % 4 !== 3;
      const e = await makeEntry(app.kv, c, holds ? {} : { playerIds: withoutScorer });
      const { browser } = await subscribeEntry(app, push, e.editToken!);
      (holds ? holders : others).add(browser.id);
    }
    await startMatch(app.kv, c);
    await createGameEvent(app.kv, c.id, { playerId: scorer, eventType: "GOAL", minute: 5 });
    // Pages of 3: four pages, two in flight at a time, one of them without a holder.
    assert.equal(await drainPushQueue({ ...app.services, pushPage: 3 }), holders.size);
    assert.deepEqual(push.refused, []);
    const to = push.received.map((r) => r.browserId);
    assert.equal(to.length, holders.size, "one push per holder");
    assert.deepEqual(new Set(to), holders);
    assert.deepEqual(await listPushQueue(app.kv), []);
    assert.equal(await drainPushQueue({ ...app.services, pushPage: 3 }), 0, "nothing left");
  } finally {
    await push.close();
    await app.close();
  }
});

Deno.test("[notifications] opt-ins at checkout, on My entries and on the confirmation page record their consent time", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const token = await checkoutEntry(app, c);
    const before = Date.now();
    const res = await settings(app, token, { deadlineEmail: true, resultEmail: true }, "checkout");
    assert.equal(res.status, 200);
    const view = await readJsonBody(res);
    assert.equal(view.deadlineEmail.source, "checkout");
    assert.ok(Date.parse(view.deadlineEmail.at) >= before - 1000);
    assert.equal(view.resultEmail.source, "checkout");
    assert.equal(view.pushScored, null);
    assert.match(view.vapidPublicKey, /^[A-Za-z0-9_-]{87}$/);

    // My entries turns one off and back on: a new consent, from there, at its own time.
    const off = await readJsonBody(await settings(app, token, { resultEmail: false }));
    assert.equal(off.resultEmail, null);
    assert.equal(off.deadlineEmail.at, view.deadlineEmail.at, "the other one is kept as given");
    const on = await readJsonBody(await settings(app, token, { resultEmail: true }));
    assert.equal(on.resultEmail.source, "my-entries");
    assert.deepEqual(await readJsonBody(await settings(app, token)), on);

    // The confirmation page's card records its own source; one already on keeps its consent.
    const confirmed = await readJsonBody(
      await settings(app, token, { deadlineEmail: true, resultEmail: false }, "confirmation"),
    );
    assert.equal(confirmed.resultEmail, null);
    assert.deepEqual(confirmed.deadlineEmail, view.deadlineEmail);
    const again = await readJsonBody(
      await settings(app, token, { resultEmail: true }, "confirmation"),
    );
    assert.equal(again.resultEmail.source, "confirmation");
    assert.ok(Date.parse(again.resultEmail.at) >= Date.parse(on.resultEmail.at));
    // Back as My entries left it (the tests below compare with `on`).
    await settings(app, token, { resultEmail: false });
    await settings(app, token, { resultEmail: true });
    const mine = await readJsonBody(await settings(app, token));
    assert.equal(mine.resultEmail.source, "my-entries");

    // Bad input changes nothing: 400 with the field; an unknown token is a 404.
    const bad = await settings(app, token, { deadlineEmail: "yes" });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(await bad.json()), /deadlineEmail/);
    assert.deepEqual(await readJsonBody(await settings(app, token)), mine, "nothing changed");
    const noPush = await settings(app, token, { pushScored: true });
    assert.equal(noPush.status, 400);
    assert.match(JSON.stringify(await noPush.json()), /Allow notifications in this browser first/);
    const badEndpoint = await settings(app, token, {
      push: { endpoint: "http://evil.example/push", keys: { p256dh: "x", auth: "y" } },
    });
    assert.equal(badEndpoint.status, 400);
    assert.equal((await settings(app, "0".repeat(32))).status, 404);
    assert.deepEqual(await readJsonBody(await settings(app, token)), mine);
  } finally {
    await app.close();
  }
});

Deno.test("[notifications] the deadline reminder goes once, 1 hour before; the result once; one-click unsubscribe stops them", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const token = await checkoutEntry(app, c);
    await settings(app, token, { deadlineEmail: true, resultEmail: true });
    await makeEntry(app.kv, c); // asked for nothing
    const deadline = Date.parse(c.deadline!);

    await t.step(
      "nothing before the last hour; one reminder within it, whatever the runs",
      async () => {
        await runNotifications(app.services, TEST_ORIGIN, new Date(deadline - 2 * 3_600_000));
        assert.equal((await notices(app, "deadlineEmail")).length, 0);
        const inHour = new Date(deadline - REMINDER_BEFORE_MS + 60_000);
        await runNotifications(app.services, TEST_ORIGIN, inHour);
        await runNotifications(app.services, TEST_ORIGIN, new Date(inHour.getTime() + 60_000));
        const sent = await notices(app, "deadlineEmail");
        assert.equal(sent.length, 1);
        assert.equal(sent[0].to, "jane@example.com");
        assert.match(sent[0].subject, /1 hour left to change your team/);
        assert.match(sent[0].text, new RegExp(`/edit/${token}`));
        assert.doesNotMatch(sent[0].text, /captain/i, "a contest without captains names none");
        assert.equal(sent[0].headers?.["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
        assert.match(
          sent[0].headers?.["List-Unsubscribe"] ?? "",
          /^<http:\/\/localhost\/api\/notifications\/unsubscribe\?t=\d+\.\d+\.[\w-]{22}>$/,
        );
        const view = await readJsonBody(await settings(app, token));
        assert.ok(view.deadlineSentAt);
      },
    );

    await t.step("the result goes once the awards are recorded, once", async () => {
      await updateCompetition(app.kv, c.id, { status: "LIVE" });
      await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
      await sweepPayments(app.services, TEST_ORIGIN); // award resumption, then notifications
      await sweepPayments(app.services, TEST_ORIGIN);
      const sent = await notices(app, "resultEmail");
      assert.equal(sent.length, 1);
      assert.match(sent[0].subject, /Final result of .*: your team finished 1st/);
      assert.match(sent[0].text, /Unsubscribe|Stop these e-mails/);
      assert.doesNotMatch(sent[0].text, /captain/i);
    });

    await t.step("the one-click POST needs no login, and a forged token is refused", async () => {
      const [reminder] = await notices(app, "deadlineEmail");
      const url = reminder.headers!["List-Unsubscribe"].slice(1, -1);
      const path = new URL(url).pathname + new URL(url).search;
      const forged = path.replace(/.{4}$/, "AAAA");
      const refused = await app.request(forged, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      assert.equal(refused.status, 404);
      await refused.body?.cancel();
      const res = await app.request(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      assert.equal(res.status, 200);
      assert.match((await res.json()).message, /no more of these e-mails/);
      const view = await readJsonBody(await settings(app, token));
      assert.equal(view.deadlineEmail, null);
      assert.equal(view.resultEmail, null);
      assert.ok(view.unsubscribedAt);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[notifications] no reminder for an entry made inside the reminder's hour", async () => {
  const app = await makeTestApp();
  try {
    // Paid 40 minutes before the deadline: the entrant has just seen it, and a reminder seconds
    // after the confirmation would only be noise. (An entry made before the hour gets one: the
    // test above.)
    const c = await makeCompetition(app.kv, {
      deadline: new Date(Date.now() + 40 * 60_000).toISOString(),
    });
    const token = await checkoutEntry(app, c);
    const asked = await readJsonBody(await settings(app, token, { deadlineEmail: true }));
    assert.ok(asked.deadlineEmail, "the reminder was asked for");
    await runNotifications(app.services, TEST_ORIGIN, new Date());
    await runNotifications(app.services, TEST_ORIGIN, new Date(Date.now() + 60_000));
    assert.deepEqual(await notices(app, "deadlineEmail"), []);
  } finally {
    await app.close();
  }
});

Deno.test("[notifications] the unsubscribe page's button stops the e-mails: no reminder then", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const token = await checkoutEntry(app, c);
    assert.ok(
      (await readJsonBody(await settings(app, token, { deadlineEmail: true }))).deadlineEmail,
    );
    const { id } = await readJsonBody(await app.request(`/api/team-edits/${token}`));
    const signed = await unsubscribeToken(app.kv, app.services.notify, c.id, id);
    const page = await app.request(`/unsubscribe?t=${signed}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Stop these e-mails\?/);
    const res = await app.request(`/api/notifications/unsubscribe?t=${signed}&from=page`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/unsubscribe?done=1");
    const deadline = Date.parse(c.deadline!);
    await runNotifications(app.services, TEST_ORIGIN, new Date(deadline - 60_000));
    assert.equal((await notices(app, "deadlineEmail")).length, 0);
  } finally {
    await app.close();
  }
});

Deno.test("[notifications] with captains: the reminder names them, the result says what the armband counted", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { captainMultiplier: 2 });
    const [gk, def, mid, def2, fwd] = validPicks(c);
    const name = (id: number) => c.players.find((p) => p.id === id)!.name;
    // Three people with the same five picks and different armbands.
    const entryWith = async (email: string, captainId: number, viceCaptainId: number) => {
      const { entry } = await createEntry(app.kv, {
        competitionId: c.id,
        email,
        teamName: `Armband ${email.split("@")[0]}`,
        playerIds: validPicks(c),
        stripePaymentId: `pi_notify_${email}`,
        captainId,
        viceCaptainId,
      });
      await setNotifyPrefs(app.kv, entry, { deadlineEmail: true, resultEmail: true }, "checkout");
      return entry;
    };
    const scored = await entryWith("mid@example.com", mid, fwd);
    const benched = await entryWith("gk@example.com", gk, fwd);
    const idle = await entryWith("def@example.com", def, def2);
    const mailTo = async (about: string, entry: Entry) => {
      const mails = (await notices(app, about)).filter((m) => m.to === entry.email);
      assert.equal(mails.length, 1, `${about} to ${entry.email}`);
      return mails[0];
    };

    await t.step("the reminder: captain (×2) and vice-captain, while they can change", async () => {
      const deadline = Date.parse(c.deadline!);
      await runNotifications(
        app.services,
        TEST_ORIGIN,
        new Date(deadline - REMINDER_BEFORE_MS + 60_000),
      );
      const mail = await mailTo("deadlineEmail", scored);
      const line = `Captain: ${name(mid)} (×2), vice-captain: ${name(fwd)}.`;
      assert.ok(mail.text.includes(line), mail.text);
      assert.ok(mail.text.includes("You can change them with the team until then."));
      assert.ok(mail.html?.includes(`<p>${line} You can change them`), mail.html ?? "no html");
      const other = await mailTo("deadlineEmail", benched);
      assert.ok(other.text.includes(`Captain: ${name(gk)} (×2), vice-captain: ${name(fwd)}.`));
    });

    await t.step(
      "the result: whose points counted ×2, the vice-captain's when the captain sat out",
      async () => {
        await updateCompetition(app.kv, c.id, { status: "LIVE" });
        const saved = await app.request(`/api/admin/competitions/${c.id}/performances`, {
          method: "POST",
          headers: admin,
          json: {
            performances: [
              { playerId: mid, minutesPlayed: 90, goals: 1 },
              { playerId: fwd, minutesPlayed: 90 },
              { playerId: gk, minutesPlayed: 0 },
            ],
          },
        });
        assert.equal(saved.status, 200);
        await saved.body?.cancel();
        const points = await getPerformancesMap(app.kv, c.id);
        const midPoints = points.get(mid)!.totalPoints;
        const fwdPoints = points.get(fwd)!.totalPoints;
        assert.ok(midPoints > 2 && fwdPoints === 2, `${midPoints}, ${fwdPoints}`);
        await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
        await sweepPayments(app.services, TEST_ORIGIN);
        await sweepPayments(app.services, TEST_ORIGIN);

        const first = await mailTo("resultEmail", scored);
        assert.ok(
          first.text.includes(
            `Captain: ${name(mid)} (×2), vice-captain: ${name(fwd)}. ${name(mid)}'s ` +
              `${midPoints} points counted ×2: ${midPoints * 2} points.`,
          ),
          first.text,
        );
        const second = await mailTo("resultEmail", benched);
        assert.ok(
          second.text.includes(
            `Captain: ${name(gk)} (×2), vice-captain: ${name(fwd)}. ${name(gk)} did not play, ` +
              `so ${name(fwd)}'s 2 points counted ×2: 4 points.`,
          ),
          second.text,
        );
        const third = await mailTo("resultEmail", idle);
        assert.ok(
          third.text.includes(
            `Captain: ${name(def)} (×2), vice-captain: ${name(def2)}. ` +
              "Neither played, so no points counted ×2.",
          ),
          third.text,
        );
        // The mail's totals are the leaderboard's: the armband counted there the same way.
        const rows = await readJsonBody(await app.request(`/api/competitions/${c.id}/leaderboard`));
        const total = rows.find((r: { teamId: string }) => r.teamId === scored.teamId).points;
        assert.match(first.text, new RegExp(`with ${total} points`));
      },
    );
  } finally {
    await app.close();
  }
});

Deno.test("[notifications] a permanent SMTP failure marks the address bounced: it gets nothing more", async () => {
  const smtp = await startTestSmtp({ rejectRecipients: true });
  const app = await makeTestApp({ smtpUrl: smtp.url });
  try {
    const c = await makeCompetition(app.kv);
    const entry = await makeEntry(app.kv, c, { email: "gone@example.com" });
    await setNotifyPrefs(app.kv, entry, { deadlineEmail: true, resultEmail: true }, "checkout");
    const deadline = Date.parse(c.deadline!);
    await runNotifications(app.services, TEST_ORIGIN, new Date(deadline - 60_000));
    assert.equal((await notices(app, "deadlineEmail")).length, 1, "written, then refused (550)");
    assert.ok(await bouncedAt(app.kv, "GONE@example.com"), "the address is marked bounced");

    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
    await sweepPayments(app.services, TEST_ORIGIN);
    await sweepPayments(app.services, TEST_ORIGIN);
    assert.equal((await notices(app, "resultEmail")).length, 0, "no result mail to it");
    assert.equal(smtp.messages.length, 0);

    // Opting in again is refused with the reason.
    const res = await settings(app, entry.editToken!, { resultEmail: true });
    assert.equal(res.status, 409);
    assert.match((await res.json()).message, /bounced/);
  } finally {
    await app.close();
    await smtp.close();
  }
});

Deno.test("[notifications] a GOAL is pushed to the subscribed entries holding the scorer; 410 removes a subscription", async (t) => {
  const push = startTestPushService();
  const app = await makeTestApp({ config: LOCAL_PUSH });
  try {
    const c = await makeCompetition(app.kv);
    const picks = validPicks(c);
    const scorer = picks[4];
    const holders = [await makeEntry(app.kv, c), await makeEntry(app.kv, c)];
    const withoutScorer = validTeams(c).find((team) => !team.includes(scorer))!;
    const without = await makeEntry(app.kv, c, { playerIds: withoutScorer });
    const browsers = new Map<number, Awaited<ReturnType<typeof push.subscribe>>>();
    for (const e of [...holders, without]) {
      const { browser, view } = await subscribeEntry(app, push, e.editToken!);
      browsers.set(e.id, browser);
      assert.equal((view.pushScored as { source: string }).source, "my-entries");
    }
    await startMatch(app.kv, c);

    await t.step("the GOAL reaches the holders' browsers, encrypted and signed", async () => {
      await createGameEvent(app.kv, c.id, { playerId: scorer, eventType: "GOAL", minute: 12 });
      await drainPushQueue(app.services);
      assert.deepEqual(push.refused, []);
      const to = push.received.map((r) => r.browserId).sort();
      assert.deepEqual(to, holders.map((e) => browsers.get(e.id)!.id).sort());
      const payload = push.received[0].payload as Record<string, string>;
      assert.equal(payload.title, "Your pick scored");
      assert.match(payload.body, /scored\./);
      assert.equal(payload.url, `/leaderboard/${c.id}`);
      // A yellow card pushes nothing.
      await createGameEvent(app.kv, c.id, { playerId: scorer, eventType: "YELLOW_CARD" });
      await drainPushQueue(app.services);
      assert.equal(push.received.length, 2);
    });

    await t.step(
      "410 from the push service removes the subscription; nothing more goes to it",
      async () => {
        const gone = holders[0];
        push.answer(browsers.get(gone.id)!.id, 410);
        await createGameEvent(app.kv, c.id, { playerId: scorer, eventType: "GOAL", minute: 30 });
        await drainPushQueue(app.services);
        const prefs = await getNotifyPrefs(app.kv, gone);
        assert.equal(prefs.push, null);
        assert.equal(prefs.pushScored, null);
        assert.ok(prefs.pushRemovedAt);
        assert.equal(push.received.length, 3, "the other holder got the second goal");
        const view = await readJsonBody(await settings(app, gone.editToken!));
        assert.equal(view.pushEndpoint, null);
      },
    );

    await t.step("revoked from My entries: push: null turns both push opt-ins off", async () => {
      const res = await settings(app, holders[1].editToken!, { push: null });
      const view = await readJsonBody(res);
      assert.equal(view.pushScored, null);
      assert.equal(view.pushFinal, null);
      await createGameEvent(app.kv, c.id, { playerId: scorer, eventType: "GOAL", minute: 40 });
      await drainPushQueue(app.services);
      assert.equal(push.received.length, 3);
    });

    await t.step("final standings are pushed once when the competition completes", async () => {
      await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
      await sweepPayments(app.services, TEST_ORIGIN);
      await sweepPayments(app.services, TEST_ORIGIN);
      const finals = push.received.filter((r) =>
        (r.payload as { title: string }).title.startsWith("Final standings")
      );
      assert.deepEqual(finals.map((f) => f.browserId), [browsers.get(without.id)!.id]);
    });
  } finally {
    await app.close();
    await push.close();
  }
});

Deno.test("[notifications] a large send goes through the worker pool: every push arrives, in order of its results", async () => {
  const push = startTestPushService();
  const notify = createNotifyState();
  try {
    const browsers = await Promise.all(Array.from({ length: 220 }, () => push.subscribe()));
    const gone = browsers[7];
    push.answer(gone.id, 410);
    const vapid = { ...webpush.generateVAPIDKeys(), subject: "mailto:ops@example.com" };
    const results = await notify.pool.send(
      browsers.map((b, i) => ({
        target: b.subscription,
        message: { title: "Your pick scored", body: `#${i}`, url: "/" },
      })),
      vapid,
      { allowLocal: true },
    );
    assert.equal(results[7], "gone");
    assert.deepEqual(results.filter((r) => r === "sent").length, 219);
    assert.deepEqual(push.refused, []);
    assert.equal(push.received.length, 219);
    for (const r of push.received) {
      const i = browsers.findIndex((b) => b.id === r.browserId);
      assert.equal((r.payload as { body: string }).body, `#${i}`, "each browser got its own");
    }
  } finally {
    notify.pool.close();
    await push.close();
  }
});

Deno.test("[notifications] a scoring event removed: a Correction replaces the push, or nothing goes when none went", async (t) => {
  const push = startTestPushService();
  const app = await makeTestApp({ config: LOCAL_PUSH });
  try {
    const c = await makeCompetition(app.kv);
    const scorer = validPicks(c)[4];
    const holders = [await makeEntry(app.kv, c), await makeEntry(app.kv, c)];
    const withoutScorer = validTeams(c).find((team) => !team.includes(scorer))!;
    const without = await makeEntry(app.kv, c, { playerIds: withoutScorer });
    const browsers = new Map<number, string>();
    for (const e of [...holders, without]) {
      browsers.set(e.id, (await subscribeEntry(app, push, e.editToken!)).browser.id);
    }
    await startMatch(app.kv, c);
    const event = (eventType: EventType, minute?: number) =>
      createGameEvent(app.kv, c.id, { playerId: scorer, eventType, minute });
    const payloads = (e: Entry) =>
      push.received.filter((r) => r.browserId === browsers.get(e.id))
        .map((r) => r.payload as Record<string, string>);

    await t.step(
      "a GOAL pushed, then ruled out: each holder gets one Correction, same tag",
      async () => {
        const goal = await event("GOAL", 12);
        await drainPushQueue(app.services);
        assert.equal(push.received.length, 2);
        await deleteGameEvent(app.kv, c.id, goal.id);
        const [queued] = await listPushQueue(app.kv);
        assert.equal(queued.value.removed, true);
        assert.equal(queued.value.eventId, goal.id);
        await drainPushQueue(app.services);
        for (const e of holders) {
          const [first, correction, ...more] = payloads(e);
          assert.equal(first.title, "Your pick scored");
          assert.equal(first.tag, `scored-${goal.id}`);
          assert.equal(correction.title, "Correction");
          assert.equal(correction.tag, first.tag, "the browser replaces the first notification");
          assert.equal(correction.body, `${goal.player!.name}'s goal was ruled out.`);
          assert.equal(correction.url, `/leaderboard/${c.id}`);
          assert.deepEqual(more, []);
        }
        assert.deepEqual(payloads(without), [], "a non-holder gets nothing");
        assert.deepEqual(await listPushQueue(app.kv), []);
        await drainPushQueue(app.services);
        assert.equal(push.received.length, 4, "exactly once");
      },
    );

    await t.step(
      "a GOAL removed before the drainer ran: no push at all, the queue empty",
      async () => {
        const goal = await event("GOAL", 20);
        assert.equal((await listPushQueue(app.kv)).length, 1);
        await deleteGameEvent(app.kv, c.id, goal.id);
        assert.deepEqual(await listPushQueue(app.kv), []);
        await drainPushQueue(app.services);
        assert.equal(push.received.length, 4);
      },
    );

    await t.step(
      "a GOAL removed once a drainer started on it: the Correction follows",
      async () => {
        const goal = await event("GOAL", 25);
        const [item] = await listPushQueue(app.kv);
        // A drainer marks the item started before its first send (a send may be in flight).
        assert.ok(await advancePushQueue(app.kv, item, -1));
        await deleteGameEvent(app.kv, c.id, goal.id);
        const queue = await listPushQueue(app.kv);
        assert.deepEqual(queue.map((q) => [q.value.eventId, q.value.removed ?? false]), [
          [goal.id, false],
          [goal.id, true],
        ]);
        await drainPushQueue(app.services);
        for (const e of holders) {
          const last = payloads(e).slice(-2);
          assert.deepEqual(last.map((p) => [p.title, p.tag]), [
            ["Your pick scored", `scored-${goal.id}`],
            ["Correction", `scored-${goal.id}`],
          ]);
        }
        assert.equal(push.received.length, 8);
      },
    );

    await t.step("an ASSIST taken off after its push: the Correction says so", async () => {
      const assist = await event("ASSIST");
      await drainPushQueue(app.services);
      await deleteGameEvent(app.kv, c.id, assist.id);
      await drainPushQueue(app.services);
      const last = payloads(holders[0]).at(-1)!;
      assert.equal(last.body, `${assist.player!.name}'s assist was taken off.`);
      assert.equal(last.tag, `scored-${assist.id}`);
      assert.equal(push.received.length, 12);
    });

    await t.step("removing a YELLOW_CARD queues nothing", async () => {
      const card = await event("YELLOW_CARD");
      assert.deepEqual(await listPushQueue(app.kv), []);
      await deleteGameEvent(app.kv, c.id, card.id);
      assert.deepEqual(await listPushQueue(app.kv), []);
      await drainPushQueue(app.services);
      assert.equal(push.received.length, 12);
    });
  } finally {
    await app.close();
    await push.close();
  }
});

Deno.test("[notifications] a feed amendment (the goal's minute corrected) keeps one notification: no Correction, the first tag", async (t) => {
  const push = startTestPushService();
  const app = await makeTestApp({ config: LOCAL_PUSH });
  try {
    const c = await makeCompetition(app.kv);
    const scorer = validPicks(c)[4];
    const other = c.players.find((p) => p.position === "FWD" && p.id !== scorer)!.id;
    const holders = [await makeEntry(app.kv, c), await makeEntry(app.kv, c)];
    const browsers = new Map<number, string>();
    for (const e of holders) {
      browsers.set(e.id, (await subscribeEntry(app, push, e.editToken!)).browser.id);
    }
    const match = await startMatch(app.kv, c);
    const feed = await feedSender(app, match.id);
    const send = async (message: Record<string, unknown>) => {
      const { status, body } = await feed.send(message);
      assert.equal(status, 200);
      return body.status;
    };
    const goal = (id: string, minute: number, more: Record<string, unknown> = {}) =>
      send({ id, type: "GOAL", playerId: scorer, minute, ...more });
    const eventIds = async () => (await listGameEvents(app.kv, c.id)).map((e) => e.id);
    const seen = (e: Entry) =>
      push.received.filter((r) => r.browserId === browsers.get(e.id))
        .map((r) => r.payload as Record<string, string>).map((p) => [p.title, p.tag]);
    await send({ id: "k", type: "KICK_OFF" });

    await t.step("amended before any push went: one push, of the new version", async () => {
      assert.equal(await goal("g1", 10), "APPLIED");
      assert.equal(await goal("g1", 12, { version: 2 }), "APPLIED");
      const [id] = await eventIds();
      assert.deepEqual((await listPushQueue(app.kv)).map((q) => q.value.eventId), [id]);
      await drainPushQueue(app.services);
      for (const e of holders) assert.deepEqual(seen(e), [["Your pick scored", `scored-${id}`]]);
    });

    let g2Tag = "";
    await t.step("amended after its push: the new push replaces it under its tag", async () => {
      assert.equal(await goal("g2", 30), "APPLIED");
      const first = Math.max(...await eventIds());
      g2Tag = `scored-${first}`;
      await drainPushQueue(app.services);
      assert.equal(await goal("g2", 31, { version: 2 }), "APPLIED");
      const amended = Math.max(...await eventIds());
      assert.notEqual(amended, first);
      const [item] = await listPushQueue(app.kv);
      assert.equal(item.value.eventId, amended);
      assert.equal(item.value.removed, undefined, "no correction: the player still scored");
      await drainPushQueue(app.services);
      for (const e of holders) {
        assert.deepEqual(seen(e).slice(1), [
          ["Your pick scored", `scored-${first}`],
          ["Your pick scored", `scored-${first}`],
        ]);
      }
      assert.deepEqual(await listPushQueue(app.kv), []);
    });

    await t.step(
      "the amended goal withdrawn after its push: the Correction has the first tag",
      async () => {
        assert.equal(await goal("g2", 31, { version: 2, withdrawn: true }), "WITHDRAWN");
        const queue = await listPushQueue(app.kv);
        assert.deepEqual(queue.map((q) => [q.value.removed, scoredTag(q.value)]), [[true, g2Tag]]);
        await drainPushQueue(app.services);
        for (const e of holders) assert.deepEqual(seen(e).slice(3), [["Correction", g2Tag]]);
        const kept = await Array.fromAsync(app.kv.list({ prefix: ["push_tags"] }));
        assert.deepEqual(kept, [], "the inherited tag went with the event");
      },
    );

    await t.step(
      "an amendment withdrawn before its push: the Correction has the first tag",
      async () => {
        assert.equal(await goal("g3", 50), "APPLIED");
        const first = Math.max(...await eventIds());
        await drainPushQueue(app.services);
        assert.equal(await goal("g3", 51, { version: 2 }), "APPLIED");
        assert.equal(await goal("g3", 51, { version: 2, withdrawn: true }), "WITHDRAWN");
        const queue = await listPushQueue(app.kv);
        assert.deepEqual(queue.map((q) => [q.value.removed, q.value.tag]), [[
          true,
          `scored-${first}`,
        ]]);
        await drainPushQueue(app.services);
        for (const e of holders) {
          assert.deepEqual(seen(e).slice(4), [
            ["Your pick scored", `scored-${first}`],
            ["Correction", `scored-${first}`],
          ]);
        }
      },
    );

    await t.step(
      "a goal given to another player: a Correction to the first's holders",
      async () => {
        assert.equal(await goal("g4", 70), "APPLIED");
        const first = Math.max(...await eventIds());
        await drainPushQueue(app.services);
        assert.equal(
          await send({ id: "g4", version: 2, type: "GOAL", playerId: other }),
          "APPLIED",
        );
        const queue = await listPushQueue(app.kv);
        assert.deepEqual(
          queue.map((q) => [q.value.playerId, q.value.removed ?? false]).sort(),
          [
            [other, false],
            [scorer, true],
          ].sort(),
        );
        await drainPushQueue(app.services);
        for (const e of holders) {
          assert.deepEqual(seen(e).slice(6), [
            ["Your pick scored", `scored-${first}`],
            ["Correction", `scored-${first}`],
          ]);
        }
      },
    );
  } finally {
    await app.close();
    await push.close();
  }
});
