import assert from "node:assert/strict";
import {
  addCompetitionPlayers,
  listAvailablePlayers,
  listCompetitionPlayerIds,
  listCompetitionPlayers,
  removeCompetitionPlayers,
} from "@/lib/db/competition_players.ts";
import { createPlayer } from "@/lib/db/players.ts";
import { InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { makeCompetition, makeTeam } from "./_fixtures.ts";

Deno.test("[competition_players] add, list by salary and remove", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const team = await makeTeam(kv, "Salary FC");
  const salaries = [3000, 9000, 6000, 12000];
  const players = [];
  for (const [i, salary] of salaries.entries()) {
    players.push(
      await createPlayer(kv, { name: `P${i}`, position: "MID", teamId: team.id, salary }),
    );
  }
  const ids = players.map((p) => p.id);

  await t.step("add counts only new players", async () => {
    assert.equal(await addCompetitionPlayers(kv, competition.id, ids.slice(0, 3)), 3);
    assert.equal(await addCompetitionPlayers(kv, competition.id, ids), 1);
  });

  await t.step("list is by salary descending, with the team", async () => {
    const list = await listCompetitionPlayers(kv, competition.id);
    assert.deepEqual(list.map((p) => p.salary), [12000, 9000, 6000, 3000]);
    assert.equal(list[0].team?.name, "Salary FC");
    assert.deepEqual(await listCompetitionPlayerIds(kv, competition.id), new Set(ids));
    assert.deepEqual(await listAvailablePlayers(kv, competition.id), []);
  });

  await t.step("remove makes players available again", async () => {
    assert.equal(await removeCompetitionPlayers(kv, competition.id, [ids[1], ids[3]]), 2);
    assert.deepEqual(
      (await listCompetitionPlayers(kv, competition.id)).map((p) => p.id),
      [ids[2], ids[0]],
    );
    assert.deepEqual(
      (await listAvailablePlayers(kv, competition.id)).map((p) => p.salary),
      [12000, 9000],
    );
  });
  kv.close();
});

Deno.test("[competition_players] refuse unknown players and competitions", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const team = await makeTeam(kv, "Only FC");
  const player = await createPlayer(kv, { name: "Solo", position: "GK", teamId: team.id });
  await assert.rejects(
    addCompetitionPlayers(kv, competition.id, [player.id, 98, 99]),
    (err) => err instanceof InvalidInputError && err.message === "Unknown player ids: 98, 99",
  );
  await assert.rejects(removeCompetitionPlayers(kv, competition.id, [98]), InvalidInputError);
  await assert.rejects(addCompetitionPlayers(kv, 55, [player.id]), NotFoundError);
  assert.equal((await listCompetitionPlayerIds(kv, competition.id)).size, 0);
  kv.close();
});

Deno.test("[competition_players] large lists are written in chunks", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const team = await makeTeam(kv, "Big Squad");
  const ids: number[] = [];
  for (let i = 0; i < 450; i++) {
    ids.push((await createPlayer(kv, { name: `N${i}`, position: "DEF", teamId: team.id })).id);
  }
  assert.equal(await addCompetitionPlayers(kv, competition.id, ids), 450);
  assert.equal((await listCompetitionPlayers(kv, competition.id)).length, 450);
  kv.close();
});
