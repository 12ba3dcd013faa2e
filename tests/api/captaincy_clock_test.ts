/**
 * Captaincy that follows the captain's match, through the API: who acts before kick-off, in play
 * with and without minutes, at full time with and without minutes, and when the match is
 * postponed; the leaderboard's acting captain and picks still to play; a postponed match's
 * players scoring 0.
 */
import assert from "node:assert/strict";
import { createEntry } from "@/lib/db/entries.ts";
import { computeStandings } from "@/lib/db/standings.ts";
import { createMatch, updateMatch } from "@/lib/db/matches.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { POSTPONED_HAS_NO_RESULT } from "@/lib/domain/schemas/catalog.ts";
import { SCORING } from "@/lib/domain/scoring.ts";
import type { Entry, Match } from "@/lib/domain/types.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  validPicks,
  validTeams,
} from "@/tests/helpers/fixtures.ts";
import { feedSender } from "@/tests/helpers/feed.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const HOUR = 3_600_000;

interface Row {
  teamId: string;
  points: number;
  captainName?: string;
  viceCaptainName?: string;
  actingCaptainName?: string;
  actingCaptainRole?: "C" | "V";
  picksToPlay?: number;
}

/** A captained contest on a match of its two clubs kicking off in an hour, with two teams. */
async function setUp(app: TestApp) {
  const admin = await makeAdminHeaders(app.kv);
  const c = await makeCompetition(app.kv, { captainMultiplier: 2 });
  const match = await createMatch(app.kv, {
    homeTeamId: c.teams[0].id,
    awayTeamId: c.teams[1].id,
    league: "PREMIER_LEAGUE",
    kickoffTime: new Date(Date.now() + HOUR).toISOString(),
    stadium: "The Ground",
  });
  await updateCompetition(app.kv, c.id, { matchId: match.id });
  const picks = validPicks(c); // GK, DEF, MID (home club), DEF, FWD (away club)
  const [, , mid, , fwd] = picks;
  const other = validTeams(c).find((t) =>
    t.includes(mid) && t.includes(fwd) && t.join() !== picks.join()
  )!;
  const make = async (name: string, playerIds: number[], captainId: number, vice: number) => {
    const teamName = `${name} ${c.id}`;
    return (await createEntry(app.kv, {
      competitionId: c.id,
      email: `${teamName.replaceAll(" ", ".")}@example.com`,
      teamName,
      playerIds,
      stripePaymentId: `pi_clock_${teamName.replaceAll(" ", "_")}`,
      captainId,
      viceCaptainId: vice,
    })).entry;
  };
  // Mid Armband: the midfielder captains, the forward is vice; Fwd Armband the other way round.
  const midFirst = await make("Mid Armband", picks, mid, fwd);
  const fwdFirst = await make("Fwd Armband", other, fwd, mid);
  const nameOf = (id: number) => c.players.find((p) => p.id === id)!.name;
  return { admin, c, match, mid, fwd, midFirst, fwdFirst, nameOf };
}

async function rowsOf(app: TestApp, cid: number): Promise<Record<string, Row>> {
  const res = await app.request(`/api/competitions/${cid}/leaderboard?limit=50`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const rows = await readJsonBody(res) as Row[];
  return Object.fromEntries(rows.map((r) => [r.teamId, r]));
}

/** The acting captain's fields of a row (absent ones left out). */
function acting(row: Row) {
  const { actingCaptainName, actingCaptainRole } = row;
  return actingCaptainName === undefined ? null : { actingCaptainName, actingCaptainRole };
}

async function savePerformances(
  app: TestApp,
  admin: Record<string, string>,
  cid: number,
  performances: { playerId: number; minutesPlayed: number }[],
) {
  const res = await app.request(`/api/admin/competitions/${cid}/performances`, {
    method: "POST",
    headers: admin,
    json: { performances },
  });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
}

/** PUT /api/admin/matches/{id} with the match's fields and `changes`. */
function putMatch(
  app: TestApp,
  admin: Record<string, string>,
  match: Match,
  changes: Record<string, unknown>,
) {
  const { homeTeamId, awayTeamId, league, kickoffTime, stadium } = match;
  return app.request(`/api/admin/matches/${match.id}`, {
    method: "PUT",
    headers: admin,
    json: {
      homeTeamId,
      awayTeamId,
      league,
      kickoffTime,
      stadium,
      homeScore: null,
      awayScore: null,
      ...changes,
    },
  });
}

/** The captain line of a player in the entry's details ("Captain ×2" / "Vice-captain ×2"). */
async function captainLineOf(app: TestApp, entry: Entry) {
  const res = await app.request(`/api/entries/${entry.teamId}/details`);
  assert.equal(res.status, 200);
  const details = await readJsonBody(res);
  const players = details.players as {
    id: number;
    points: number;
    breakdown: { key: string; label: string; points: number }[];
  }[];
  const carrier = players.find((p) => p.breakdown.some((l) => l.key === "captain"));
  return {
    playerId: carrier?.id ?? null,
    label: carrier?.breakdown.find((l) => l.key === "captain")?.label ?? null,
    total: details.entry.totalPoints as number,
  };
}

Deno.test("[captaincy] the captain acts from kick-off; the vice takes over only at full time with the captain on 0 minutes", async (t) => {
  const app = await makeTestApp();
  try {
    const { admin, c, match, mid, fwd, midFirst, fwdFirst, nameOf } = await setUp(app);
    let current = match;
    const reschedule = async (changes: Record<string, unknown>) => {
      const res = await putMatch(app, admin, current, changes);
      assert.equal(res.status, 200, await res.clone().text());
      current = await readJsonBody(res);
    };

    await t.step(
      "before kick-off: nothing named to others; the owner's team shows the captain",
      async () => {
        const rows = await rowsOf(app, c.id);
        assert.equal(acting(rows[midFirst.teamId]), null);
        assert.equal(rows[midFirst.teamId].picksToPlay, undefined, "not started: no count");
        // An admin may set the contest LIVE before the kick-off: the acting captain stays hidden
        // (a pick that has not kicked off is not named), the count shows.
        await updateCompetition(app.kv, c.id, { status: "LIVE" });
        const early = await rowsOf(app, c.id);
        assert.equal(acting(early[midFirst.teamId]), null, "his match has not kicked off");
        assert.equal(early[midFirst.teamId].picksToPlay, 5);
        const line = await captainLineOf(app, midFirst);
        assert.deepEqual([line.playerId, line.label], [mid, "Captain ×2"]);
      },
    );

    await t.step(
      "in play, the captain with 0 minutes recorded: he acts, not the vice",
      async () => {
        await reschedule({ kickoffTime: new Date(Date.now() - 10 * 60_000).toISOString() });
        await savePerformances(app, admin, c.id, [
          { playerId: mid, minutesPlayed: 0 },
          { playerId: fwd, minutesPlayed: 90 },
        ]);
        const rows = await rowsOf(app, c.id);
        // The forward's 2 points count once: the midfielder captain's 0 counts ×2.
        assert.equal(rows[midFirst.teamId].points, 2, "the vice is not doubled mid-match");
        assert.deepEqual(acting(rows[midFirst.teamId]), {
          actingCaptainName: nameOf(mid),
          actingCaptainRole: "C",
        });
        assert.equal(rows[midFirst.teamId].picksToPlay, 5, "kicked off, in play: still to play");
        assert.equal(rows[fwdFirst.teamId].points, 2 * 2);
        const line = await captainLineOf(app, midFirst);
        assert.deepEqual([line.playerId, line.label, line.total], [mid, "Captain ×2", 2]);
      },
    );

    await t.step("in play with minutes: the captain's points count ×2", async () => {
      await savePerformances(app, admin, c.id, [{ playerId: mid, minutesPlayed: 30 }]);
      const goal = await app.request(`/api/admin/competitions/${c.id}/events`, {
        method: "POST",
        headers: admin,
        json: { playerId: mid, eventType: "GOAL", minute: 20 },
      });
      assert.equal(goal.status, 201);
      await goal.body?.cancel();
      const rows = await rowsOf(app, c.id);
      const midPoints = 1 + SCORING.MID.goal;
      assert.equal(rows[midFirst.teamId].points, midPoints * 2 + 2);
      assert.equal(rows[fwdFirst.teamId].points, midPoints + 2 * 2);
      assert.equal(acting(rows[midFirst.teamId])?.actingCaptainRole, "C");
    });

    await t.step("full time with minutes: the captain keeps it; nothing left to play", async () => {
      await reschedule({ homeScore: 1, awayScore: 0 });
      assert.equal(current.status, "COMPLETED");
      const rows = await rowsOf(app, c.id);
      const midPoints = 1 + SCORING.MID.goal;
      assert.equal(rows[midFirst.teamId].points, midPoints * 2 + 2);
      assert.equal(acting(rows[midFirst.teamId])?.actingCaptainRole, "C");
      assert.equal(rows[midFirst.teamId].picksToPlay, 0);
    });

    await t.step("full time with 0 minutes: the vice-captain takes the ×2", async () => {
      // A correction after full time: the captain never came on (his goal withdrawn).
      const events = await readJsonBody(await app.request(`/api/competitions/${c.id}/events`));
      for (const e of events as { id: number }[]) {
        const res = await app.request(`/api/admin/competitions/${c.id}/events/${e.id}`, {
          method: "DELETE",
          headers: admin,
        });
        assert.ok(res.status === 200 || res.status === 204, String(res.status));
        await res.body?.cancel();
      }
      await savePerformances(app, admin, c.id, [{ playerId: mid, minutesPlayed: 0 }]);
      const rows = await rowsOf(app, c.id);
      assert.equal(rows[midFirst.teamId].points, 2 * 2, "the forward's 2 points ×2");
      assert.deepEqual(acting(rows[midFirst.teamId]), {
        actingCaptainName: nameOf(fwd),
        actingCaptainRole: "V",
      });
      assert.equal(rows[midFirst.teamId].captainName, nameOf(mid), "the captain is still named");
      const line = await captainLineOf(app, midFirst);
      assert.deepEqual([line.playerId, line.label, line.total], [fwd, "Vice-captain ×2", 4]);
      const standings = await computeStandings(app.kv, c.id);
      for (const row of standings) assert.equal(row.points, rows[row.teamId].points, row.teamId);
    });

    await t.step("the result cleared again (back in play): the captain acts again", async () => {
      await reschedule({ homeScore: null, awayScore: null });
      const rows = await rowsOf(app, c.id);
      assert.equal(acting(rows[midFirst.teamId])?.actingCaptainRole, "C");
      assert.equal(rows[midFirst.teamId].points, 2);
    });
  } finally {
    await app.close();
  }
});

/** A captained contest on a match that kicked off an hour ago, with performances saved. */
async function playedContest(app: TestApp) {
  const set = await setUp(app);
  const { admin, c, match, mid, fwd } = set;
  const kicked = await putMatch(app, admin, match, {
    kickoffTime: new Date(Date.now() - HOUR).toISOString(),
  });
  assert.equal(kicked.status, 200);
  const started = await readJsonBody(kicked) as Match;
  await updateCompetition(app.kv, c.id, { status: "LIVE" });
  await savePerformances(app, admin, c.id, [
    { playerId: mid, minutesPlayed: 90 },
    { playerId: fwd, minutesPlayed: 90 },
  ]);
  return { ...set, match: started };
}

Deno.test("[captaincy] a postponed match: its players score 0, no pick is left to play, the vice acts once the contest's matches are settled", async () => {
  const app = await makeTestApp();
  try {
    const { admin, c, match, fwd, midFirst, fwdFirst, nameOf } = await playedContest(app);
    assert.equal((await rowsOf(app, c.id))[midFirst.teamId].points, 2 * 2 + 2);

    const res = await putMatch(app, admin, match, { status: "POSTPONED" });
    assert.equal(res.status, 200, await res.clone().text());
    const postponed = await readJsonBody(res);
    assert.deepEqual(
      [postponed.status, postponed.result, postponed.homeScore, postponed.awayScore],
      ["POSTPONED", "NOT_PLAYED", null, null],
    );
    const rows = await rowsOf(app, c.id);
    for (const team of [midFirst, fwdFirst]) {
      assert.equal(rows[team.teamId].points, 0, "a postponed match scores 0 for its players");
      assert.equal(rows[team.teamId].picksToPlay, 0, "postponed picks are not still to play");
    }
    // The contest's only match is postponed: every match is settled, so the vice acts (on 0).
    assert.deepEqual(acting(rows[midFirst.teamId]), {
      actingCaptainName: nameOf(fwd),
      actingCaptainRole: "V",
    });
    const details = await readJsonBody(
      await app.request(`/api/entries/${midFirst.teamId}/details`),
    );
    assert.equal(details.entry.totalPoints, 0);
    for (const p of details.players as { points: number; breakdown: { points: number }[] }[]) {
      assert.equal(p.points, 0);
      assert.equal(p.breakdown.reduce((sum, l) => sum + l.points, 0), 0, "lines sum to 0");
    }
    for (const row of await computeStandings(app.kv, c.id)) assert.equal(row.points, 0);
    const page = await (await app.request(`/leaderboard/${c.id}`)).text();
    assert.match(page, /data-testid="match-state"[^>]*>Postponed</, "the page says so");
    const listed = await readJsonBody(
      await app.request("/api/admin/matches", { headers: admin }),
    ) as Match[];
    assert.equal(listed.find((m) => m.id === match.id)?.status, "POSTPONED");

    // Scores and POSTPONED at once: a 400 naming the field, nothing changed.
    const both = await putMatch(app, admin, match, {
      status: "POSTPONED",
      homeScore: 1,
      awayScore: 1,
    });
    assert.equal(both.status, 400);
    const refusal = await readJsonBody(both);
    assert.equal(refusal.issues[0].path[0], "status");
    assert.equal(refusal.issues[0].message, POSTPONED_HAS_NO_RESULT);
    const kept = await readJsonBody(
      await app.request(`/api/admin/matches/${match.id}`, { headers: admin }),
    );
    assert.equal(kept.status, "POSTPONED");

    // A game event does not bring a postponed match back to LIVE.
    const goal = await app.request(`/api/admin/competitions/${c.id}/events`, {
      method: "POST",
      headers: admin,
      json: { playerId: fwd, eventType: "GOAL", minute: 5 },
    });
    assert.equal(goal.status, 201);
    await goal.body?.cancel();
    const still = await readJsonBody(
      await app.request(`/api/admin/matches/${match.id}`, { headers: admin }),
    );
    assert.equal(still.status, "POSTPONED");
    assert.equal((await rowsOf(app, c.id))[fwdFirst.teamId].points, 0);

    // Saved without POSTPONED (played after all): the points come back, the captain acts.
    const back = await putMatch(app, admin, match, {});
    assert.equal(back.status, 200);
    assert.equal((await readJsonBody(back)).status, "UPCOMING");
    const restored = await rowsOf(app, c.id);
    const fwdPoints = 2 + SCORING.FWD.goal;
    assert.equal(restored[fwdFirst.teamId].points, fwdPoints * 2 + 2);
    assert.equal(acting(restored[midFirst.teamId])?.actingCaptainRole, "C");
    assert.equal(restored[midFirst.teamId].picksToPlay, 5);
  } finally {
    await app.close();
  }
});

Deno.test("[captaincy] the feed's full time makes the vice act; for a postponed match it plays it after all", async () => {
  const app = await makeTestApp();
  try {
    const { admin, c, match, mid, midFirst } = await playedContest(app);
    const { send } = await feedSender(app, match.id);
    await savePerformances(app, admin, c.id, [{ playerId: mid, minutesPlayed: 0 }]);
    assert.equal(acting((await rowsOf(app, c.id))[midFirst.teamId])?.actingCaptainRole, "C");
    const ft = await send({ id: "ft", type: "FULL_TIME", homeScore: 0, awayScore: 0 });
    assert.equal(ft.body.status, "APPLIED");
    assert.equal(acting((await rowsOf(app, c.id))[midFirst.teamId])?.actingCaptainRole, "V");

    const other = await playedContest(app);
    const res = await putMatch(app, admin, other.match, { status: "POSTPONED" });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    const late = await feedSender(app, other.match.id, "late");
    assert.equal((await rowsOf(app, other.c.id))[other.midFirst.teamId].points, 0);
    // The feed's word that the match is played wins over the postponement: its full time (a
    // kick-off first, as for a missed kick-off) saves the result and the points count again.
    const played = await late.send({ id: "ft", type: "FULL_TIME", homeScore: 2, awayScore: 1 });
    assert.equal(played.body.status, "APPLIED");
    const saved = await readJsonBody(
      await app.request(`/api/admin/matches/${other.match.id}`, { headers: admin }),
    );
    assert.deepEqual([saved.status, saved.homeScore, saved.awayScore], ["COMPLETED", 2, 1]);
    const rows = await rowsOf(app, other.c.id);
    assert.equal(rows[other.midFirst.teamId].points, 2 * 2 + 2);
    assert.equal(rows[other.midFirst.teamId].picksToPlay, 0);
    assert.equal(acting(rows[other.midFirst.teamId])?.actingCaptainRole, "C");
    // A result saved by a caller that does not clear the postponement is refused (the admin's
    // form and API clear it with the status they send).
    const again = await putMatch(app, admin, saved, { status: "POSTPONED" });
    assert.equal(again.status, 200);
    await again.body?.cancel();
    await assert.rejects(
      () => updateMatch(app.kv, other.match.id, { homeScore: 1, awayScore: 0 }),
      (err: Error) => err.message === POSTPONED_HAS_NO_RESULT,
    );
  } finally {
    await app.close();
  }
});

Deno.test("[captaincy] a scheduled kick-off names the acting captain with no write to the store", async () => {
  const app = await makeTestApp();
  try {
    const { admin, c, match, midFirst, mid, nameOf } = await setUp(app);
    const soon = new Date(Date.now() + 1500).toISOString();
    const res = await putMatch(app, admin, match, { kickoffTime: soon });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    const before = await app.request(`/api/competitions/${c.id}/leaderboard?limit=50`);
    const etag = before.headers.get("etag")!;
    const rows = await readJsonBody(before) as Row[];
    const kickedOff = Date.now() >= Date.parse(soon);
    if (!kickedOff) {
      assert.equal(acting(rows.find((r) => r.teamId === midFirst.teamId)!), null);
    }
    // Nothing is written at the kick-off: the kept standings and the ETag follow the clock.
    const row = await waitFor("the acting captain once kicked off", async () => {
      const answer = await app.request(`/api/competitions/${c.id}/leaderboard?limit=50`, {
        headers: { "if-none-match": etag },
      });
      if (answer.status === 304) return null;
      const found = (await readJsonBody(answer) as Row[]).find((r) => r.teamId === midFirst.teamId);
      return found?.actingCaptainName ? found : null;
    });
    assert.deepEqual(acting(row), { actingCaptainName: nameOf(mid), actingCaptainRole: "C" });
  } finally {
    await app.close();
  }
});
