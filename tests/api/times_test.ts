/**
 * Times a person can act on: deadlines and kick-offs as date, clock and named zone in
 * the pages (UTC from the server, in `<time datetime>` for the browser to show in its own zone)
 * and in the confirmation e-mail (UTC, named), which also states the amount paid.
 */
import assert from "node:assert/strict";
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { LOCAL_TIMES_PREPAINT } from "@/lib/client/prepaint.ts";
import { formatWhen } from "@/lib/domain/format.ts";
import type { Player } from "@/lib/domain/types.ts";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeCompetition,
  makePlayer,
  makeTeam,
  payTestIntent,
  type TestCompetition,
} from "@/tests/helpers/fixtures.ts";

const SQUAD = ["GK", "DEF", "DEF", "MID", "FWD"] as const;

/** A competition on a match of its two clubs: kick-off 27 Nov 2036 17:06 UTC, deadline 16:06. */
async function matchCompetition(app: TestApp): Promise<TestCompetition> {
  const teams = [await makeTeam(app.kv), await makeTeam(app.kv)];
  const match = await createMatch(app.kv, {
    homeTeamId: teams[0].id,
    awayTeamId: teams[1].id,
    league: "PREMIER_LEAGUE",
    kickoffTime: "2036-11-27T17:06:00.000Z",
    stadium: "Anfield",
  });
  const c = await makeCompetition(app.kv, {
    name: "Clock Cup",
    matchId: match.id,
    entryFee: 7.5,
    currency: "GBP",
    deadline: "2036-11-27T16:06:00.000Z",
  }, { players: false });
  const players: Player[] = [];
  for (const team of teams) {
    for (const position of SQUAD) {
      players.push(await makePlayer(app.kv, { teamId: team.id, position }));
    }
  }
  await addCompetitionPlayers(app.kv, c.id, players.map((p) => p.id));
  return { ...c, players, teams };
}

async function pay(app: TestApp, c: TestCompetition): Promise<string> {
  const paymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", { method: "POST", json: entryBody(c, paymentId) });
  assert.equal(res.status, 201);
  return (await readJsonBody(res)).teamId;
}

/** The `<time>` elements of `html`: their datetime and text. */
function times(html: string): { datetime: string; text: string }[] {
  return [...html.matchAll(/<time datetime="([^"]+)"[^>]*>([^<]*)<\/time>/g)]
    .map(([, datetime, text]) => ({ datetime, text }));
}

Deno.test("[times] formatWhen: weekday, date, 24-hour clock and the zone's name", () => {
  const at = "2036-11-27T17:06:00.000Z";
  assert.equal(formatWhen(at, "UTC"), "Thu 27 Nov, 17:06 UTC");
  assert.equal(formatWhen(at, "Europe/London"), "Thu 27 Nov, 17:06 GMT");
  assert.equal(formatWhen(at, "Europe/Paris"), "Thu 27 Nov, 18:06 CET");
  assert.equal(formatWhen("2036-07-01T23:30:00Z", "Europe/London"), "Wed 2 Jul, 00:30 BST");
  assert.equal(formatWhen(at, "UTC", { year: true }), "Thu 27 Nov 2036, 17:06 UTC");
  assert.equal(formatWhen("2036-11-27T00:00:00Z", "UTC"), "Thu 27 Nov, 00:00 UTC", "never 24:00");
  assert.equal(formatWhen("not a date", "UTC"), "");
});

Deno.test("[times] the prepaint script writes what formatWhen writes in the visitor's zone", () => {
  const isos = ["2036-11-27T17:06:00.000Z", "2036-07-01T23:30:00.000Z"];
  const elements = isos.map((iso) => ({ dateTime: iso, textContent: "UTC text" }));
  const document = { querySelectorAll: () => elements };
  new Function("document", LOCAL_TIMES_PREPAINT)(document);
  assert.deepEqual(elements.map((e) => e.textContent), isos.map((iso) => formatWhen(iso)));
});

Deno.test("[times] pages name the deadline and kick-off, the e-mail the amount paid and deadline", async (t) => {
  await withTestApp(async (app) => {
    const c = await matchCompetition(app);
    const deadline = { datetime: "2036-11-27T16:06Z", text: "Thu 27 Nov, 16:06 UTC" };
    const kickoff = { datetime: "2036-11-27T17:06Z", text: "Thu 27 Nov, 17:06 UTC" };
    await t.step("the contest card: 'Closes in …' and the deadline", async () => {
      const html = await (await app.request("/")).text();
      assert.match(html, /Clock Cup[\s\S]*Closes in \d+d · <time datetime="2036-11-27T16:06/);
      assert.ok(
        times(html).some((x) => x.text === deadline.text && x.datetime === deadline.datetime),
      );
    });
    await t.step(
      "the builder header: the deadline under the countdown and the kick-off",
      async () => {
        const html = await (await app.request(`/team-selection/${c.id}`)).text();
        const found = times(html);
        assert.ok(found.some((x) => x.text === deadline.text), JSON.stringify(found));
        assert.ok(found.some((x) => x.text === kickoff.text), JSON.stringify(found));
        const at = html.indexOf("data-kickoff");
        assert.ok(at > 0 && /Kick-off/.test(html.slice(at, at + 400)), html.slice(at, at + 400));
      },
    );
    const teamId = await pay(app, c);
    await t.step(
      "the confirmation e-mail: amount paid, deadline and edit deadline in UTC",
      async () => {
        const mail = (await listOutbox(app.kv)).find((m) => m.subject.includes("is confirmed"))!;
        assert.ok(mail.text.includes("Amount paid: £7.50"), mail.text);
        assert.ok(mail.text.includes("Entries close: Thu 27 Nov 2036, 16:06 UTC"), mail.text);
        assert.match(
          mail.text,
          /Change your team for free until the deadline, Thu 27 Nov 2036, 16:06 UTC: http:\/\/\S+\/edit\//,
        );
        assert.ok(mail.html?.includes("Amount paid: <strong>£7.50</strong>"));
        assert.ok(mail.html?.includes("until the deadline, Thu 27 Nov 2036, 16:06 UTC"));
      },
    );
    await t.step(
      "the confirmation page: deadline and kick-off, rewritten to the visitor's zone",
      async () => {
        const res = await app.request(`/confirmation/${teamId}`);
        const html = await res.text();
        const found = times(html);
        assert.deepEqual(found, [deadline, kickoff]);
        assert.ok(html.includes(LOCAL_TIMES_PREPAINT), "the script that shows them in local time");
        const csp = res.headers.get("content-security-policy") ?? "";
        const hash = btoa(String.fromCharCode(
          ...new Uint8Array(
            await crypto.subtle.digest("SHA-256", new TextEncoder().encode(LOCAL_TIMES_PREPAINT)),
          ),
        ));
        assert.ok(csp.includes(`'sha256-${hash}'`), "the CSP allows the script by its hash");
      },
    );
  });
});
