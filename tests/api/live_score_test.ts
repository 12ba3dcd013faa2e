import assert from "node:assert/strict";
import { readJsonBody } from "@/tests/helpers/app.ts";
import { makeLiveMatch, withAdminApp } from "@/tests/helpers/fixtures.ts";
import { keys } from "@/lib/store/keys.ts";
import type { Match } from "@/lib/domain/types.ts";

Deno.test("[live score] the match score follows GOAL and OWN_GOAL events", async (t) => {
  await withAdminApp(async (app, admin) => {
    const { c, match } = await makeLiveMatch(app.kv);
    const [home, away] = c.teams;
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

Deno.test("[live score] a goal, its points and the score are one write", async () => {
  await withAdminApp(async (app, admin) => {
    const { c, match } = await makeLiveMatch(app.kv);
    const away = c.teams[1];
    const scorer = c.players.find((p) => p.teamId === away.id)!;
    const res = await app.request(`/api/admin/competitions/${c.id}/events`, {
      method: "POST",
      headers: admin,
      json: { playerId: scorer.id, eventType: "GOAL", minute: 7 },
    });
    assert.equal(res.status, 201);
    const created = await readJsonBody(res);
    assert.equal(created.player.name, scorer.name);
    assert.equal(created.player.team.name, away.name);
    const [event, performance, saved] = await app.kv.getMany([
      keys.event(c.id, created.id),
      keys.performance(c.id, scorer.id),
      keys.match(match.id),
    ]);
    assert.deepEqual([
      (saved.value as Match).homeScore,
      (saved.value as Match).awayScore,
    ], [0, 1]);
    assert.equal(performance.versionstamp, event.versionstamp);
    assert.equal(saved.versionstamp, event.versionstamp);
  });
});
