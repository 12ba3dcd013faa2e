import assert from "node:assert/strict";
import { getCompetition } from "@/lib/db/competitions.ts";
import { createMatch, updateMatch } from "@/lib/db/matches.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { advanceCompetitionStatuses, advanceMatchCompetitions } from "@/lib/db/status_clock.ts";
import { AUTO_COMPLETE_GRACE_MS } from "@/lib/domain/competition.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { feedSender } from "@/tests/helpers/feed.ts";
import { makeEntry, makePlayer, makeTeam, withAdminApp } from "@/tests/helpers/fixtures.ts";
import { makeRound, makeRoundContest, playerOf } from "@/tests/helpers/rounds.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

Deno.test("[rounds] admin CRUD: a named set of matches, each club once, kept while in use", async (t) => {
  await withAdminApp(async (app, admin) => {
    const soon = Date.now() + 2 * HOUR;
    const { matches } = await makeRound(app.kv, [new Date(soon), new Date(soon + HOUR)]);
    const post = (json: unknown) =>
      app.request("/api/admin/rounds", { method: "POST", headers: admin, json });

    await t.step("POST makes a round with its matches by kick-off", async () => {
      const res = await post({
        name: "Premier League, Matchday 14",
        matchIds: [matches[1].id, matches[0].id],
      });
      assert.equal(res.status, 201);
      assert.match(res.headers.get("content-type")!, /^application\/json/);
      const round = await readJsonBody(res);
      assert.equal(round.name, "Premier League, Matchday 14");
      assert.deepEqual(round.matchIds, [matches[0].id, matches[1].id]);
      assert.equal(round.matches[0].homeTeam.id, matches[0].homeTeamId);
    });

    await t.step("bad input is a 400 naming the field, and nothing is made", async () => {
      const before = (await readJsonBody(
        await app.request("/api/admin/rounds", { headers: admin }),
      )).length;
      const cases: [unknown, string, RegExp][] = [
        [{ name: "", matchIds: [matches[0].id] }, "name", /Name is required/],
        [{ name: "R", matchIds: [] }, "matchIds", /at least one match/],
        [{ name: "R", matchIds: [999_999] }, "matchIds", /Match 999999 does not exist/],
        [{ name: "R", matchIds: [matches[0].id, matches[0].id] }, "matchIds", /only once/],
      ];
      for (const [body, field, message] of cases) {
        const res = await post(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        const answer = await readJsonBody(res);
        assert.equal(answer.issues[0].path[0], field);
        assert.match(answer.message, message);
      }
      // A club cannot play twice in one round (its players' lock is its one match).
      const again = await createMatch(app.kv, {
        homeTeamId: matches[0].homeTeamId,
        awayTeamId: matches[1].awayTeamId,
        league: "PREMIER_LEAGUE",
        kickoffTime: new Date(soon + 3 * HOUR).toISOString(),
        stadium: "Ground",
      });
      const twice = await post({ name: "R", matchIds: [matches[0].id, again.id] });
      assert.equal(twice.status, 400);
      assert.match((await readJsonBody(twice)).message, /share a club/);
      const after = (await readJsonBody(
        await app.request("/api/admin/rounds", { headers: admin }),
      )).length;
      assert.equal(after, before);
    });

    await t.step("admins only", async () => {
      const res = await app.request("/api/admin/rounds");
      assert.equal(res.status, 401);
    });

    await t.step("in use: the round and its matches cannot be deleted", async () => {
      const round = await readJsonBody(await post({ name: "Used", matchIds: [matches[0].id] }));
      const res = await app.request("/api/admin/competitions", {
        method: "POST",
        headers: admin,
        json: {
          name: "On the round",
          league: "PREMIER_LEAGUE",
          entryFee: 5,
          prizePool: 50,
          roundId: round.id,
        },
      });
      assert.equal(res.status, 201);
      const del = await app.request(`/api/admin/rounds/${round.id}`, {
        method: "DELETE",
        headers: admin,
      });
      assert.equal(del.status, 409);
      assert.match((await readJsonBody(del)).message, /On the round/);
      const delMatch = await app.request(`/api/admin/matches/${matches[0].id}`, {
        method: "DELETE",
        headers: admin,
      });
      assert.equal(delMatch.status, 409);
      const renamed = await app.request(`/api/admin/rounds/${round.id}`, {
        method: "PUT",
        headers: admin,
        json: { name: "Renamed", matchIds: [matches[0].id] },
      });
      assert.equal(renamed.status, 200);
      assert.equal((await readJsonBody(renamed)).name, "Renamed");
    });
  });
});

Deno.test("[rounds] a contest on a round: deadline at the first kick-off, the round's clubs only", async (t) => {
  await withAdminApp(async (app, admin) => {
    const first = new Date(Date.now() + 2 * HOUR);
    const c = await makeRoundContest(app.kv, [new Date(first.getTime() + HOUR), first]);
    const body = { name: "Round", league: "PREMIER_LEAGUE", entryFee: 5, prizePool: 50 };
    const create = (json: unknown) =>
      app.request("/api/admin/competitions", { method: "POST", headers: admin, json });

    await t.step("the deadline defaults to the round's first kick-off", async () => {
      const res = await create({ ...body, roundId: c.round.id });
      assert.equal(res.status, 201);
      const made = await readJsonBody(res);
      assert.equal(made.deadline, first.toISOString());
      assert.equal(made.roundId, c.round.id);
      assert.equal(made.matchId, null);
    });

    await t.step(
      "a match and a round at once, a deadline after the first kick-off: 400",
      async () => {
        const both = await create({ ...body, roundId: c.round.id, matchId: c.matches[0].id });
        assert.equal(both.status, 400);
        assert.equal((await readJsonBody(both)).issues[0].path[0], "roundId");
        const late = await create({
          ...body,
          roundId: c.round.id,
          deadline: new Date(first.getTime() + MINUTE).toISOString(),
        });
        assert.equal(late.status, 400);
        assert.equal((await readJsonBody(late)).issues[0].path[0], "deadline");
        const unknown = await create({ ...body, roundId: 999_999 });
        assert.equal(unknown.status, 400);
        assert.equal((await readJsonBody(unknown)).issues[0].path[0], "roundId");
      },
    );

    await t.step("only the players of the round's clubs can be added", async () => {
      const outsider = await makePlayer(app.kv, { teamId: (await makeTeam(app.kv)).id });
      const res = await app.request(`/api/admin/competitions/${c.id}/players`, {
        method: "POST",
        headers: admin,
        json: { playerIds: [outsider.id] },
      });
      assert.equal(res.status, 400);
      assert.match((await readJsonBody(res)).message, /does not play in this competition's round/);
      const available = await readJsonBody(
        await app.request(`/api/admin/competitions/${c.id}/available-players`, { headers: admin }),
      );
      assert.equal(available.some((p: { id: number }) => p.id === outsider.id), false);
    });

    await t.step(
      "the builder shows each player's fixture and kick-off and filters by match",
      async () => {
        const html = await (await app.request(`/team-selection/${c.id}`)).text();
        const [early, late] = c.matches; // by kick-off
        const short = (id: number) => c.teams.find((t) => t.id === id)!.shortName;
        for (const m of [early, late]) {
          assert.match(html, new RegExp(`${short(m.homeTeamId)} v ${short(m.awayTeamId)}`));
        }
        assert.match(html, /data-match-filter/);
        assert.match(html, /All Matches/);
        assert.match(html, /2 matches/);
        const players = await readJsonBody(await app.request(`/api/competitions/${c.id}/players`));
        assert.equal(players.length, c.players.length, "every club's players of the round");
      },
    );
  });
});

Deno.test("[rounds] status follows the round; points sum each pick's own match", async (t) => {
  await withAdminApp(async (app) => {
    const first = new Date(Date.now() + HOUR);
    const second = new Date(first.getTime() + 2 * HOUR);
    const c = await makeRoundContest(app.kv, [first, second], { autoStatus: true });
    const [a, b, x, y] = c.teams; // a v b first, x v y second
    const picks = [
      playerOf(c, a, "GK"),
      playerOf(c, a, "DEF"),
      playerOf(c, b, "MID"),
      playerOf(c, x, "DEF"),
      playerOf(c, y, "FWD"),
    ];
    const entry = await makeEntry(app.kv, c as never, { playerIds: picks.map((p) => p.id) });

    await t.step("UPCOMING before the first kick-off", async () => {
      await advanceCompetitionStatuses(app.kv, new Date(first.getTime() - MINUTE));
      assert.equal((await getCompetition(app.kv, c.id))!.status, "UPCOMING");
    });

    await t.step("LIVE at the first kick-off", async () => {
      const report = await advanceCompetitionStatuses(app.kv, first);
      assert.equal(report.live, 1);
      assert.equal((await getCompetition(app.kv, c.id))!.status, "LIVE");
    });

    await t.step("the first match's result alone does not complete the round", async () => {
      const at = new Date(first.getTime() + 2 * HOUR);
      await updateMatch(app.kv, c.matches[0].id, { homeScore: 1, awayScore: 0 }, at);
      await advanceMatchCompetitions(app.kv, c.matches[0].id, at);
      await advanceCompetitionStatuses(app.kv, new Date(at.getTime() + 2 * AUTO_COMPLETE_GRACE_MS));
      assert.equal((await getCompetition(app.kv, c.id))!.status, "LIVE");
    });

    await t.step("points: each pick scores in his own match", async () => {
      await savePerformances(app.kv, c.id, [
        { playerId: picks[2].id, goals: 1, minutesPlayed: 90 }, // MID, first match: 2 + 5
        { playerId: picks[4].id, goals: 2, minutesPlayed: 30 }, // FWD, second match: 1 + 8
      ] as never);
      const rows = await readJsonBody(
        await app.request(`/api/competitions/${c.id}/leaderboard`),
      );
      const row = rows.find((r: { teamId: string }) => r.teamId === entry.teamId);
      assert.equal(row.points, 16);
    });

    await t.step("COMPLETED 30 minutes after the last match's result, not before", async () => {
      const saved = new Date(second.getTime() + 2 * HOUR);
      await updateMatch(app.kv, c.matches[1].id, { homeScore: 2, awayScore: 2 }, saved);
      await advanceMatchCompetitions(app.kv, c.matches[1].id, saved);
      await advanceCompetitionStatuses(
        app.kv,
        new Date(saved.getTime() + AUTO_COMPLETE_GRACE_MS - MINUTE),
      );
      assert.equal((await getCompetition(app.kv, c.id))!.status, "LIVE");
      const report = await advanceCompetitionStatuses(
        app.kv,
        new Date(saved.getTime() + AUTO_COMPLETE_GRACE_MS),
      );
      assert.equal(report.completed, 1);
      const done = await getCompetition(app.kv, c.id);
      assert.equal(done!.status, "COMPLETED");
    });
  });
});

Deno.test("[rounds] the feed drives a round contest: a kick-off starts it, events score per match", async () => {
  const app = await makeTestApp();
  try {
    const first = new Date(Date.now() + HOUR);
    const c = await makeRoundContest(app.kv, [first, new Date(first.getTime() + 2 * HOUR)]);
    const [a, b, x, y] = c.teams;
    const picks = [
      playerOf(c, a, "GK"),
      playerOf(c, a, "DEF"),
      playerOf(c, b, "MID"),
      playerOf(c, x, "DEF"),
      playerOf(c, y, "FWD"),
    ];
    const entry = await makeEntry(app.kv, c as never, { playerIds: picks.map((p) => p.id) });
    const { send } = await feedSender(app, c.matches[0].id);
    const kick = await send({ id: "k", type: "KICK_OFF" });
    assert.equal(kick.status, 200, JSON.stringify(kick.body));
    const live = await getCompetition(app.kv, c.id);
    assert.equal(live!.status, "LIVE", "the round's first kick-off starts the contest");
    assert.ok(Date.parse(live!.deadline) <= Date.now(), "and closes its entries");
    const goal = await send({ id: "g1", type: "GOAL", playerId: picks[2].id, minute: 12 });
    assert.equal(goal.status, 200, JSON.stringify(goal.body));
    const rows = await readJsonBody(await app.request(`/api/competitions/${c.id}/leaderboard`));
    const row = rows.find((r: { teamId: string }) => r.teamId === entry.teamId);
    assert.equal(row.points, 5, "the MID's goal in his own match");
  } finally {
    await app.close();
  }
});
