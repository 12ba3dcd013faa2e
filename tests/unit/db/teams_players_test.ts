import assert from "node:assert/strict";
import {
  createPlayer,
  getPlayer,
  getPlayersByIds,
  listPlayers,
  listPlayersByTeam,
  updatePlayer,
  withTeam,
} from "@/lib/db/players.ts";
import { getTeam, getTeamsByIds, listTeams, updateTeam } from "@/lib/db/teams.ts";
import { InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { makeTeam } from "./_fixtures.ts";

Deno.test("[teams] create, read, list by name and update", async () => {
  const kv = await Deno.openKv(":memory:");
  const zeta = await makeTeam(kv, "Zeta Albion", "ZET");
  const alpha = await makeTeam(kv, "Alpha Wanderers", "ALP");
  assert.deepEqual([zeta.id, alpha.id], [1, 2]);
  assert.deepEqual(await getTeam(kv, zeta.id), zeta);
  assert.deepEqual((await listTeams(kv)).map((t) => t.name), ["Alpha Wanderers", "Zeta Albion"]);

  const updated = await updateTeam(kv, zeta.id, { logoUrl: "/crests/zet.svg" });
  assert.equal(updated.logoUrl, "/crests/zet.svg");
  assert.equal(updated.name, "Zeta Albion");
  await assert.rejects(updateTeam(kv, 99, { name: "Nobody" }), NotFoundError);

  const map = await getTeamsByIds(kv, [alpha.id, zeta.id, alpha.id, 99]);
  assert.deepEqual([...map.keys()].sort(), [1, 2]);
  assert.equal(map.get(zeta.id)?.logoUrl, "/crests/zet.svg");
  kv.close();
});

Deno.test("[teams] parallel creations get distinct ids", async () => {
  const kv = await Deno.openKv(":memory:");
  const teams = await Promise.all(Array.from({ length: 20 }, (_, i) => makeTeam(kv, `Team ${i}`)));
  assert.deepEqual(
    teams.map((t) => t.id).sort((a, b) => a - b),
    [...Array(20)].map((_, i) => i + 1),
  );
  assert.equal((await listTeams(kv)).length, 20);
  kv.close();
});

Deno.test("[players] create with defaults, list by team, move team", async () => {
  const kv = await Deno.openKv(":memory:");
  const [red, blue] = [await makeTeam(kv, "Red"), await makeTeam(kv, "Blue")];
  const player = await createPlayer(kv, { name: "Sam Keeper", position: "GK", teamId: red.id });
  assert.deepEqual(player, {
    id: 1,
    name: "Sam Keeper",
    position: "GK",
    teamId: red.id,
    imageUrl: null,
    salary: 1000,
    goals: 0,
    assists: 0,
    cleanSheets: 0,
  });
  await assert.rejects(
    createPlayer(kv, { name: "Lost", position: "MID", teamId: 77 }),
    InvalidInputError,
  );
  assert.deepEqual(await listPlayersByTeam(kv, red.id), [player]);

  const moved = await updatePlayer(kv, player.id, { teamId: blue.id, salary: 6500 });
  assert.equal(moved.salary, 6500);
  assert.deepEqual(await listPlayersByTeam(kv, red.id), []);
  assert.deepEqual(await listPlayersByTeam(kv, blue.id), [moved]);
  assert.deepEqual(await getPlayer(kv, player.id), moved);
  await assert.rejects(updatePlayer(kv, player.id, { teamId: 55 }), InvalidInputError);
  await assert.rejects(updatePlayer(kv, 99, { salary: 1 }), NotFoundError);
  kv.close();
});

Deno.test("[players] read many in order and attach teams", async () => {
  const kv = await Deno.openKv(":memory:");
  const team = await makeTeam(kv, "Many FC");
  const ids: number[] = [];
  for (let i = 0; i < 25; i++) {
    ids.push((await createPlayer(kv, { name: `P${i}`, position: "DEF", teamId: team.id })).id);
  }
  const wanted = [...ids].reverse().concat([999]);
  const players = await getPlayersByIds(kv, wanted);
  assert.deepEqual(players.map((p) => p.id), [...ids].reverse());
  assert.equal((await listPlayers(kv)).length, 25);
  const withTeams = await withTeam(kv, players.slice(0, 2));
  assert.equal(withTeams[0].team?.name, "Many FC");
  kv.close();
});
