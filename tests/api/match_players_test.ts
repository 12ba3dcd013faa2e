import assert from "node:assert/strict";
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { migrateOffMatchPlayers } from "@/lib/db/match_players.ts";
import { readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  makeCompetition,
  makeEntry,
  makePlayer,
  makeTeam,
  type TestCompetition,
  withAdminApp,
} from "@/tests/helpers/fixtures.ts";

/** `c` set on a match between its own two clubs, kicking off tomorrow. */
async function onOwnMatch(app: TestApp, c: TestCompetition) {
  const kickoff = new Date(Date.now() + 86_400_000).toISOString();
  const match = await createMatch(app.kv, {
    homeTeamId: c.teams[0].id,
    awayTeamId: c.teams[1].id,
    league: "PREMIER_LEAGUE",
    kickoffTime: kickoff,
    stadium: "Ground",
  });
  await updateCompetition(app.kv, c.id, { matchId: match.id, deadline: kickoff });
  return match;
}

/** Writes a player link directly, as stores made before the check hold them. */
async function linkDirectly(app: TestApp, cid: number, playerId: number, salary: number) {
  await app.kv.set(keys.competitionPlayer(cid, playerId), { playerId, salary });
}

Deno.test("[match players] with a match set, a player of another club is refused by name", async () => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv, {}, { players: false });
    const full = await makeCompetition(app.kv);
    const visitors = await makeTeam(app.kv, { shortName: "KBA", name: "Kingsbridge" });
    const outsider = await makePlayer(app.kv, { name: "Jordan Radcliffe", teamId: visitors.id });
    await onOwnMatch(app, { ...c, teams: full.teams });
    const add = (playerIds: number[]) =>
      app.request(`/api/admin/competitions/${c.id}/players`, {
        method: "POST",
        headers: admin,
        json: { playerIds },
      });

    const available = await readJsonBody(
      await app.request(`/api/admin/competitions/${c.id}/available-players`, { headers: admin }),
    );
    const clubs = new Set(full.teams.map((team) => team.id));
    assert.ok(available.length > 0);
    assert.ok(
      available.every((p: { teamId: number }) => clubs.has(p.teamId)),
      "only the match's clubs are offered",
    );

    const refused = await add([full.players[0].id, outsider.id]);
    assert.equal(refused.status, 400);
    const body = await readJsonBody(refused);
    assert.match(
      body.message,
      /^Jordan Radcliffe \(KBA\) does not play in this competition's match \(T\d+ v T\d+\)/,
    );
    assert.deepEqual(body.issues[0].path, ["playerIds"]);
    const listed = await readJsonBody(
      await app.request(`/api/admin/competitions/${c.id}/players`, { headers: admin }),
    );
    assert.equal(listed.length, 0, "nothing was added");

    const ok = await add(full.players.map((p) => p.id));
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    // Without a match any player may be added (a multi-match contest).
    const open = await makeCompetition(app.kv, {}, { players: false });
    assert.equal(await addCompetitionPlayers(app.kv, open.id, [outsider.id]), 1);
  });
});

Deno.test("[match players] the migration cleans contests without entries and lists the rest", async (t) => {
  await withAdminApp(async (app, admin) => {
    const stray = await makePlayer(app.kv, { name: "Stray Star", salary: 9000 });
    const empty = await makeCompetition(app.kv, { name: "Empty Cup" });
    const entered = await makeCompetition(app.kv, { name: "Entered Cup" });
    const done = await makeCompetition(app.kv, { name: "Done Cup" });
    for (const c of [empty, entered, done]) {
      await onOwnMatch(app, c);
      await linkDirectly(app, c.id, stray.id, stray.salary);
    }
    await makeEntry(app.kv, entered);
    await updateCompetition(app.kv, done.id, { status: "COMPLETED" });

    await t.step("removes the strays where nobody entered, lists the others", async () => {
      assert.deepEqual(await migrateOffMatchPlayers(app.kv), { fixed: 1, listed: 1 });
      assert.equal((await app.kv.get(keys.competitionPlayer(empty.id, stray.id))).value, null);
      assert.ok((await app.kv.get(keys.competitionPlayer(entered.id, stray.id))).value);
      assert.ok((await app.kv.get(keys.competitionPlayer(done.id, stray.id))).value, "history");
      assert.deepEqual(await migrateOffMatchPlayers(app.kv), { fixed: 0, listed: 1 }, "again");
    });

    await t.step("the dashboard names them until an admin removes them", async () => {
      const rows = async () =>
        await readJsonBody(await app.request("/api/admin/competitions", { headers: admin }));
      const row = (await rows()).find((r: { id: number }) => r.id === entered.id);
      assert.match(row.offMatchPlayers[0], /^Stray Star \(T\d+\)$/);
      assert.equal(
        (await rows()).find((r: { id: number }) => r.id === empty.id).offMatchPlayers,
        null,
      );
      const removed = await app.request(`/api/admin/competitions/${entered.id}/players`, {
        method: "DELETE",
        headers: admin,
        json: { playerIds: [stray.id] },
      });
      assert.equal(removed.status, 200);
      await removed.body?.cancel();
      const after = (await rows()).find((r: { id: number }) => r.id === entered.id);
      assert.equal(after.offMatchPlayers, null);
      assert.equal((await app.kv.get(keys.offMatchCompetition(entered.id))).value, null);
    });
  });
});
