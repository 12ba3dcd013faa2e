import assert from "node:assert/strict";
import {
  deleteCompetition,
  getCompetition,
  listCompetitions,
  requireCompetition,
  updateCompetition,
} from "@/lib/db/competitions.ts";
import { createEntry, getEntry } from "@/lib/db/entries.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { getLiveVersion } from "@/lib/store/live.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { ConflictError, NotFoundError } from "@/lib/domain/errors.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { HOUR, keysUnder, makeCompetition, makeSquad } from "./_fixtures.ts";

Deno.test("[competitions] create applies the product defaults", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, {
    deadline: "2030-01-02T10:00:00+01:00",
    id: 77,
    currentEntries: 9,
  } as Partial<Competition>);
  assert.equal(competition.id, 1);
  assert.equal(competition.currentEntries, 0);
  assert.equal(competition.deadline, "2030-01-02T09:00:00.000Z");
  assert.equal(competition.status, "UPCOMING");
  assert.equal(competition.prizeType, "CASH");
  assert.equal(competition.currency, "USD");
  assert.equal(competition.maxPlayersPerTeam, 3);
  assert.equal(competition.maxForwards, 2);
  assert.equal(competition.minDefenders, 1);
  assert.equal(competition.salaryCap, 50000);
  assert.equal(competition.maxEntries, null);
  assert.equal(competition.matchId, null);
  assert.equal(competition.description, null);
  assert.ok(!Number.isNaN(Date.parse(competition.createdAt)));
  assert.deepEqual(await getCompetition(kv, competition.id), competition);
  await assert.rejects(requireCompetition(kv, 5), NotFoundError);
  kv.close();
});

Deno.test("[competitions] list sorted by deadline ascending", async () => {
  const kv = await Deno.openKv(":memory:");
  const late = await makeCompetition(kv, { name: "Late", deadline: "2030-03-01T00:00:00Z" });
  const early = await makeCompetition(kv, { name: "Early", deadline: "2030-01-01T00:00:00Z" });
  const mid = await makeCompetition(kv, { name: "Mid", deadline: "2030-02-01T00:00:00Z" });
  assert.deepEqual((await listCompetitions(kv)).map((c) => c.id), [early.id, mid.id, late.id]);
  kv.close();
});

Deno.test("[competitions] update keeps id, counter and createdAt and bumps live", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const before = await getLiveVersion(kv, competition.id);
  const updated = await updateCompetition(kv, competition.id, {
    name: "Renamed",
    salaryCap: 40000,
    id: 9,
    currentEntries: 50,
    createdAt: "1999-01-01T00:00:00Z",
  } as Partial<Competition>);
  assert.equal(updated.name, "Renamed");
  assert.equal(updated.salaryCap, 40000);
  assert.equal(updated.id, competition.id);
  assert.equal(updated.currentEntries, 0);
  assert.equal(updated.createdAt, competition.createdAt);
  assert.notEqual(await getLiveVersion(kv, competition.id), before);
  await assert.rejects(updateCompetition(kv, 42, { name: "X" }), NotFoundError);
  kv.close();
});

Deno.test("[competitions] becoming COMPLETED awards the prizes", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { validPick, players } = await makeSquad(kv, competition.id);
  await setPrizeStructure(kv, competition.id, [{ position: 1, prize: 100 }]);
  const { entry } = await createEntry(kv, {
    competitionId: competition.id,
    email: "a@example.com",
    teamName: "Winners",
    playerIds: validPick,
    stripePaymentId: "pi_a",
  });
  await savePerformances(kv, competition.id, [{ playerId: players[0].id, minutesPlayed: 90 }]);
  await updateCompetition(kv, competition.id, { status: "COMPLETED" });

  const awarded = await getEntry(kv, entry.id);
  assert.equal(awarded?.points, 2);
  assert.equal(awarded?.rank, 1);
  assert.equal(awarded?.prize, 100);
  kv.close();
});

Deno.test("[competitions] delete refuses a competition with paid entries", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv, { name: "Busy" });
  const { validPick } = await makeSquad(kv, competition.id);
  await createEntry(kv, {
    competitionId: competition.id,
    email: "a@example.com",
    teamName: "Someone",
    playerIds: validPick,
    stripePaymentId: "pi_busy",
  });
  await assert.rejects(
    deleteCompetition(kv, competition.id),
    (err) => err instanceof ConflictError && err.message.includes("paid entr"),
  );
  assert.ok(await getCompetition(kv, competition.id));
  kv.close();
});

Deno.test("[competitions] delete without entries removes everything hanging from it", async () => {
  const kv = await Deno.openKv(":memory:");
  const created = await makeCompetition(kv);
  const other = await makeCompetition(kv, { name: "Other" });
  const { players, teams: [home, away] } = await makeSquad(kv, created.id);
  await makeSquad(kv, other.id);
  // The match of the squad's two clubs (a competition's players play in its match), under way.
  const match = await createMatch(kv, {
    homeTeamId: home.id,
    awayTeamId: away.id,
    league: "PREMIER_LEAGUE",
    kickoffTime: new Date(Date.now() - HOUR).toISOString(),
    stadium: "Ground",
  });
  const competition = await updateCompetition(kv, created.id, {
    matchId: match.id,
    status: "LIVE",
  });
  await setPrizeStructure(kv, competition.id, [{ position: 1, prize: 60 }, {
    position: 2,
    prize: 40,
  }]);
  await savePerformances(kv, competition.id, [{ playerId: players[0].id, minutesPlayed: 60 }]);
  await createGameEvent(kv, competition.id, { playerId: players[1].id, eventType: "GOAL" });

  await deleteCompetition(kv, competition.id);

  assert.equal(await getCompetition(kv, competition.id), null);
  for (
    const prefix of [
      "competition_players",
      "performances",
      "events",
      "prizes",
      "live",
      "entries_by_competition",
    ]
  ) {
    assert.deepEqual(await keysUnder(kv, [prefix, competition.id]), [], prefix);
  }
  assert.deepEqual(await keysUnder(kv, ["competitions_by_match", match.id]), []);
  assert.equal((await keysUnder(kv, ["competition_players", other.id])).length, 12);
  await assert.rejects(deleteCompetition(kv, competition.id), NotFoundError);
  kv.close();
});
