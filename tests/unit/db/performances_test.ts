import assert from "node:assert/strict";
import { getLiveVersion } from "@/lib/store/live.ts";
import { getPerformancesMap, listPerformances, savePerformances } from "@/lib/db/performances.ts";
import { createPlayer } from "@/lib/db/players.ts";
import { InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { makeCompetition, makeSquad } from "./_fixtures.ts";

Deno.test("[performances] list every competition player, zeros when nothing saved", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { players } = await makeSquad(kv, competition.id);

  const rows = await listPerformances(kv, competition.id);
  assert.equal(rows.length, players.length);
  assert.deepEqual(
    rows.map((r) => r.player.position),
    ["GK", "GK", "DEF", "DEF", "DEF", "DEF", "MID", "MID", "MID", "MID", "FWD", "FWD"],
  );
  assert.equal(rows[0].player.team?.name, "Alpha FC");
  assert.deepEqual(rows[0].performance, {
    id: 0,
    playerId: rows[0].player.id,
    competitionId: competition.id,
    goals: 0,
    assists: 0,
    cleanSheet: false,
    yellowCards: 0,
    redCard: false,
    saves: 0,
    penaltySaves: 0,
    penaltyMisses: 0,
    ownGoals: 0,
    minutesPlayed: 0,
    goalsConceded: 0,
    bonus: 0,
    totalPoints: 0,
  });
  kv.close();
});

Deno.test("[performances] save computes totals, normalises bonus and bumps live", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { players } = await makeSquad(kv, competition.id);
  const keeper = players.find((p) => p.position === "GK")!;
  const defender = players.find((p) => p.position === "DEF")!;
  const liveBefore = await getLiveVersion(kv, competition.id);

  const saved = await savePerformances(kv, competition.id, [
    { playerId: keeper.id, minutesPlayed: 90, saves: 4, cleanSheet: true, bonus: 1 },
    { playerId: defender.id, minutesPlayed: 30, goals: 1, goalsConceded: 4, yellowCards: 1 },
  ]);

  assert.equal(saved.length, 2);
  const map = await getPerformancesMap(kv, competition.id);
  const gk = map.get(keeper.id)!;
  assert.equal(gk.bonus, 3);
  assert.equal(gk.totalPoints, 2 + 2 + 4 + 3);
  assert.equal(map.get(defender.id)!.totalPoints, 1 + 6 - 1 - 2);
  assert.notEqual(await getLiveVersion(kv, competition.id), liveBefore);

  await savePerformances(kv, competition.id, [{ playerId: keeper.id, minutesPlayed: 10 }]);
  const again = (await getPerformancesMap(kv, competition.id)).get(keeper.id)!;
  assert.equal(again.id, gk.id);
  assert.equal(again.totalPoints, 1);
  assert.equal(again.saves, 0);
  kv.close();
});

Deno.test("[performances] refuse players outside the competition", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const { teams } = await makeSquad(kv, competition.id);
  const outsider = await createPlayer(kv, { name: "Out", position: "MID", teamId: teams[0].id });
  await assert.rejects(
    savePerformances(kv, competition.id, [{ playerId: outsider.id, goals: 1 }]),
    InvalidInputError,
  );
  await assert.rejects(savePerformances(kv, 404, []), NotFoundError);
  assert.equal((await getPerformancesMap(kv, competition.id)).size, 0);
  kv.close();
});
