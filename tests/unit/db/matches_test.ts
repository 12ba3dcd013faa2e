import assert from "node:assert/strict";
import { deleteCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import {
  createMatch,
  deleteMatch,
  getMatch,
  getMatchWithTeams,
  listCompetitionsUsingMatch,
  listMatches,
  type MatchInput,
  updateMatch,
} from "@/lib/db/matches.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { createTeam } from "@/lib/db/teams.ts";
import { makeCompetition, makeTeam } from "./_fixtures.ts";

async function twoTeams(kv: Deno.Kv) {
  return [await makeTeam(kv, "Home United"), await makeTeam(kv, "Away Rovers")];
}

function matchInput(homeTeamId: number, awayTeamId: number, kickoff = "2030-05-01T15:00:00.000Z") {
  return {
    homeTeamId,
    awayTeamId,
    league: "PREMIER_LEAGUE",
    kickoffTime: kickoff,
    stadium: "The Ground",
  } satisfies MatchInput;
}

Deno.test("[matches] result and status are computed on save", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const [home, away] = await twoTeams(kv);
  const match = await createMatch(kv, matchInput(home.id, away.id, "2025-05-01T15:00:00.000Z"));
  assert.equal(match.result, "NOT_PLAYED");
  assert.equal(match.status, "UPCOMING");
  assert.equal(match.homeScore, null);

  const cases = [
    [2, 1, "HOME_WIN", "COMPLETED"],
    [0, 3, "AWAY_WIN", "COMPLETED"],
    [1, 1, "DRAW", "COMPLETED"],
    [null, 1, "NOT_PLAYED", "UPCOMING"],
  ] as const;
  for (const [homeScore, awayScore, result, status] of cases) {
    await t.step(`${homeScore}-${awayScore} → ${result}`, async () => {
      const saved = await updateMatch(kv, match.id, { homeScore, awayScore });
      assert.equal(saved.result, result);
      assert.equal(saved.status, status);
      assert.deepEqual(await getMatch(kv, match.id), saved);
    });
  }
  kv.close();
});

Deno.test("[matches] validate the teams", async () => {
  const kv = await Deno.openKv(":memory:");
  const [home, away] = await twoTeams(kv);
  await assert.rejects(
    createMatch(kv, matchInput(home.id, home.id)),
    (err) =>
      err instanceof InvalidInputError &&
      err.message === "Home team and away team cannot be the same",
  );
  await assert.rejects(createMatch(kv, matchInput(home.id, 99)), InvalidInputError);
  const match = await createMatch(kv, matchInput(home.id, away.id));
  await assert.rejects(updateMatch(kv, match.id, { awayTeamId: home.id }), InvalidInputError);
  await assert.rejects(updateMatch(kv, 99, { stadium: "X" }), NotFoundError);
  kv.close();
});

Deno.test("[matches] list by kickoff with home and away teams", async () => {
  const kv = await Deno.openKv(":memory:");
  const [home, away] = await twoTeams(kv);
  const later = await createMatch(kv, matchInput(home.id, away.id, "2030-06-01T15:00:00.000Z"));
  const sooner = await createMatch(kv, matchInput(away.id, home.id, "2030-05-01T15:00:00.000Z"));
  const list = await listMatches(kv);
  assert.deepEqual(list.map((m) => m.id), [sooner.id, later.id]);
  assert.equal(list[0].homeTeam?.name, "Away Rovers");
  assert.equal(list[0].awayTeam?.shortName, "HOM");
  assert.equal((await getMatchWithTeams(kv, later.id))?.homeTeam?.id, home.id);
  assert.equal(await getMatchWithTeams(kv, 99), null);
  kv.close();
});

Deno.test("[matches] delete refuses a match used by a competition", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const [home, away] = await twoTeams(kv);
  const match = await createMatch(kv, matchInput(home.id, away.id));
  const competition = await makeCompetition(kv, { name: "Derby Day", matchId: match.id });

  await t.step("the message names the competition", async () => {
    await assert.rejects(
      deleteMatch(kv, match.id),
      (err) =>
        err instanceof ConflictError &&
        err.message === `This match is used by competition "Derby Day" (id ${competition.id})` &&
        err.message.includes("competition"),
    );
    assert.deepEqual((await listCompetitionsUsingMatch(kv, match.id)).map((c) => c.id), [
      competition.id,
    ]);
  });

  await t.step("moving the competition to another match frees it", async () => {
    const other = await createMatch(kv, matchInput(away.id, home.id));
    await updateCompetition(kv, competition.id, { matchId: other.id });
    await deleteMatch(kv, match.id);
    assert.equal(await getMatch(kv, match.id), null);
    await assert.rejects(deleteMatch(kv, other.id), ConflictError);
    await deleteCompetition(kv, competition.id);
    await deleteMatch(kv, other.id);
  });

  await assert.rejects(deleteMatch(kv, match.id), NotFoundError);
  assert.deepEqual(await listMatches(kv), []);
  kv.close();
});

Deno.test("[matches] a competition cannot link a missing match", async () => {
  const kv = await Deno.openKv(":memory:");
  await assert.rejects(makeCompetition(kv, { matchId: 7 }), InvalidInputError);
  kv.close();
});

Deno.test("[matches] refuse a result before kick-off and clubs of another league", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const [home, away] = await twoTeams(kv);
  const spanish = await createTeam(kv, {
    name: "Real Montaña",
    shortName: "RMO",
    league: "LA_LIGA",
    logoUrl: null,
  });
  const now = new Date("2026-11-23T12:00:00Z");
  await t.step("a score for a future match is refused", async () => {
    const future = matchInput(home.id, away.id, "2026-11-30T15:00:00.000Z");
    await assert.rejects(
      createMatch(kv, { ...future, homeScore: 2, awayScore: 2 }, now),
      (err) =>
        err instanceof InvalidInputError &&
        err.message === "A result can only be saved once the match has kicked off." &&
        err.issues?.[0].path[0] === "homeScore",
    );
    const saved = await createMatch(kv, future, now);
    await assert.rejects(updateMatch(kv, saved.id, { homeScore: 1, awayScore: 0 }, now));
    const later = new Date("2026-11-30T17:00:00Z");
    assert.equal(
      (await updateMatch(kv, saved.id, { homeScore: 1, awayScore: 0 }, later)).result,
      "HOME_WIN",
    );
  });
  await t.step("a La Liga club in a Premier League match is refused", async () => {
    await assert.rejects(
      createMatch(kv, matchInput(home.id, spanish.id), now),
      (err) =>
        err instanceof InvalidInputError &&
        err.message === "Real Montaña plays in La Liga, not Premier League." &&
        err.issues?.[0].path[0] === "awayTeamId",
    );
  });
  await t.step("a cup match takes clubs of any league", async () => {
    const cup = { ...matchInput(home.id, spanish.id), league: "CHAMPIONS_LEAGUE" as const };
    assert.equal((await createMatch(kv, cup, now)).awayTeamId, spanish.id);
  });
  kv.close();
});
