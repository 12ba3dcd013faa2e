import assert from "node:assert/strict";
import { readJsonBody } from "@/tests/helpers/app.ts";
import {
  makeCompetition,
  makeEntry,
  makePlayer,
  makeTeam,
  validPicks,
  withAdminApp,
} from "@/tests/helpers/fixtures.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";

Deno.test("[admin players] deleting a player: refused with the reason when in an entry", async (t) => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    await makeEntry(app.kv, c);
    const picked = c.players.find((p) => p.id === validPicks(c)[0])!;
    const spare = await makePlayer(app.kv, { name: "Spare Part", teamId: c.teams[0].id });
    await addCompetitionPlayers(app.kv, c.id, [spare.id]);
    const del = (id: number) =>
      app.request(`/api/admin/players/${id}`, { method: "DELETE", headers: admin });
    await t.step("a picked player stays, with the reason", async () => {
      const res = await del(picked.id);
      assert.equal(res.status, 409);
      assert.equal(
        (await readJsonBody(res)).message,
        `${picked.name} is in 1 entry, so they cannot be deleted. Remove them from competitions instead.`,
      );
    });
    await t.step("an unpicked player goes, and leaves the competitions", async () => {
      const res = await del(spare.id);
      assert.equal(res.status, 200);
      await res.body?.cancel();
      const list = await readJsonBody(await app.request(`/api/competitions/${c.id}/players`));
      assert.equal(list.some((p: { id: number }) => p.id === spare.id), false);
      assert.equal((await del(spare.id)).status, 404);
    });
  });
});

Deno.test("[admin clubs] edit a club; delete only an unused one", async (t) => {
  await withAdminApp(async (app, admin) => {
    const used = await makeTeam(app.kv, { name: "Used FC", shortName: "USE" });
    await makePlayer(app.kv, { teamId: used.id });
    const [home, away] = [await makeTeam(app.kv), await makeTeam(app.kv)];
    await createMatch(app.kv, {
      homeTeamId: home.id,
      awayTeamId: away.id,
      league: "PREMIER_LEAGUE",
      kickoffTime: new Date(Date.now() + 86_400_000).toISOString(),
      stadium: "Ground",
    });
    const idle = await makeTeam(app.kv, { name: "Idle Town", shortName: "IDL" });
    const del = (id: number) =>
      app.request(`/api/admin/teams/${id}`, { method: "DELETE", headers: admin });
    await t.step("PUT edits the club", async () => {
      const res = await app.request(`/api/admin/teams/${idle.id}`, {
        method: "PUT",
        headers: admin,
        json: { name: "Idle Rovers", shortName: "IDR", league: "LA_LIGA", logoUrl: "" },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), {
        id: idle.id,
        name: "Idle Rovers",
        shortName: "IDR",
        league: "LA_LIGA",
        logoUrl: null,
      });
    });
    await t.step("a club with players or matches stays, with the reason", async () => {
      const withPlayers = await del(used.id);
      assert.equal(withPlayers.status, 409);
      assert.equal(
        (await readJsonBody(withPlayers)).message,
        "Used FC still has 1 player: delete or move them first.",
      );
      const withMatch = await del(home.id);
      assert.equal(withMatch.status, 409);
      assert.match((await readJsonBody(withMatch)).message, /plays in 1 match/);
    });
    await t.step("an unused club goes", async () => {
      const res = await del(idle.id);
      assert.equal(res.status, 200);
      await res.body?.cancel();
      const teams = await readJsonBody(await app.request("/api/admin/teams", { headers: admin }));
      assert.equal(teams.some((t: { id: number }) => t.id === idle.id), false);
    });
  });
});
