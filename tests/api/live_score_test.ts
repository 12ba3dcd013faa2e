import assert from "node:assert/strict";
import { readJsonBody } from "@/tests/helpers/app.ts";
import { makeCompetition, withAdminApp } from "@/tests/helpers/fixtures.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";

Deno.test("[live score] the match score follows GOAL and OWN_GOAL events", async (t) => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    const [home, away] = c.teams;
    const match = await createMatch(app.kv, {
      homeTeamId: home.id,
      awayTeamId: away.id,
      league: "PREMIER_LEAGUE",
      kickoffTime: new Date(Date.now() - 3_600_000).toISOString(),
      stadium: "The Ground",
    });
    await updateCompetition(app.kv, c.id, { matchId: match.id, status: "LIVE" });
    const homePlayer = c.players.find((p) => p.teamId === home.id)!;
    const awayPlayer = c.players.find((p) => p.teamId === away.id)!;
    const post = async (playerId: number, eventType: string) => {
      const res = await app.request(`/api/admin/competitions/${c.id}/events`, {
        method: "POST",
        headers: admin,
        json: { playerId, eventType, minute: 10 },
      });
      assert.equal(res.status, 201);
      return (await readJsonBody(res)).id as number;
    };
    const fixture = async () =>
      (await readJsonBody(await app.request(`/api/competitions/${c.id}`))).fixture;

    await t.step("before any goal the fixture has no score", async () => {
      const f = await fixture();
      assert.equal(f.homeTeam.name, home.name);
      assert.equal(f.awayTeam.name, away.name);
      assert.equal(f.homeScore, null);
    });
    let ownGoal = 0;
    await t.step("a goal and an own goal of the away side make it 2-0, LIVE", async () => {
      await post(homePlayer.id, "GOAL");
      await post(homePlayer.id, "ASSIST");
      ownGoal = await post(awayPlayer.id, "OWN_GOAL");
      const f = await fixture();
      assert.deepEqual([f.homeScore, f.awayScore, f.status], [2, 0, "LIVE"]);
      const admins = await readJsonBody(
        await app.request(`/api/admin/matches/${match.id}`, { headers: admin }),
      );
      assert.equal(admins.result, "HOME_WIN");
    });
    await t.step("deleting the own goal takes it back", async () => {
      const res = await app.request(`/api/admin/competitions/${c.id}/events/${ownGoal}`, {
        method: "DELETE",
        headers: admin,
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      await post(awayPlayer.id, "GOAL");
      const f = await fixture();
      assert.deepEqual([f.homeScore, f.awayScore], [1, 1]);
    });
    await t.step("a result saved by the admin is final: events no longer move it", async () => {
      const res = await app.request(`/api/admin/matches/${match.id}`, {
        method: "PUT",
        headers: admin,
        json: {
          homeTeamId: home.id,
          awayTeamId: away.id,
          league: "PREMIER_LEAGUE",
          kickoffTime: match.kickoffTime,
          stadium: "The Ground",
          homeScore: 3,
          awayScore: 1,
        },
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      await post(awayPlayer.id, "GOAL");
      const f = await fixture();
      assert.deepEqual([f.homeScore, f.awayScore, f.status], [3, 1, "COMPLETED"]);
    });
  });
});
