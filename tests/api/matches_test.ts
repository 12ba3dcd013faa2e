import assert from "node:assert/strict";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { makeAdminHeaders, makeCompetition, makeTeam } from "@/tests/helpers/fixtures.ts";

Deno.test("[admin matches] result and status are computed on save", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const home = await makeTeam(app.kv, { name: "Home FC", shortName: "HOM" });
    const away = await makeTeam(app.kv, { name: "Away FC", shortName: "AWA" });
    const form = (patch: Record<string, unknown> = {}) => ({
      homeTeamId: home.id,
      awayTeamId: away.id,
      league: "PREMIER_LEAGUE",
      kickoffTime: "2025-05-01T15:00:00.000Z",
      stadium: "The Ground",
      homeScore: null,
      awayScore: null,
      result: "HOME_WIN",
      status: "COMPLETED",
      ...patch,
    });
    let id = 0;
    await t.step("no scores: NOT_PLAYED and UPCOMING, whatever is sent", async () => {
      const res = await app.request("/api/admin/matches", {
        method: "POST",
        headers: admin,
        json: form(),
      });
      assert.equal(res.status, 201);
      const match = await readJsonBody(res);
      assert.equal(match.result, "NOT_PLAYED");
      assert.equal(match.status, "UPCOMING");
      assert.equal(match.homeTeam.shortName, "HOM");
      id = match.id;
    });
    const put = (patch: Record<string, unknown>) =>
      app.request(`/api/admin/matches/${id}`, { method: "PUT", headers: admin, json: form(patch) });
    const outcomes: [unknown, unknown, string, string][] = [
      [2, 1, "HOME_WIN", "COMPLETED"],
      ["0", "3", "AWAY_WIN", "COMPLETED"],
      [1, 1, "DRAW", "COMPLETED"],
      [1, "", "NOT_PLAYED", "UPCOMING"],
    ];
    for (const [homeScore, awayScore, result, status] of outcomes) {
      await t.step(`${homeScore}-${awayScore} → ${result}`, async () => {
        const res = await put({ homeScore, awayScore });
        assert.equal(res.status, 200);
        const match = await readJsonBody(res);
        assert.equal(match.result, result);
        assert.equal(match.status, status);
      });
    }
    await t.step("GET one and the list carry homeTeam and awayTeam", async () => {
      const one = await readJsonBody(
        await app.request(`/api/admin/matches/${id}`, { headers: admin }),
      );
      assert.equal(one.awayTeam.name, "Away FC");
      const list = await readJsonBody(await app.request("/api/admin/matches", { headers: admin }));
      assert.equal(list.length, 1);
      assert.equal(list[0].homeTeam.logoUrl, null);
    });
    await t.step("validation messages", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ homeTeamId: "" }, "Home team is required"],
        [{ awayTeamId: null }, "Away team is required"],
        [{ league: "" }, "League is required"],
        [{ kickoffTime: "" }, "Kickoff time is required"],
        [{ stadium: " " }, "Stadium is required"],
        [{ awayTeamId: home.id }, "Home team and away team cannot be the same"],
        [{ homeScore: -1, awayScore: 0 }, "Scores must be whole numbers of at least 0"],
        [{ awayTeamId: 999 }, "Team 999 does not exist."],
      ];
      for (const [patch, message] of cases) {
        const res = await app.request("/api/admin/matches", {
          method: "POST",
          headers: admin,
          json: form(patch),
        });
        assert.equal(res.status, 400, JSON.stringify(patch));
        assert.equal((await readJsonBody(res)).message, message);
      }
    });
    await t.step("unknown match: GET and PUT are 404", async () => {
      const get = await app.request("/api/admin/matches/999", { headers: admin });
      assert.equal(get.status, 404);
      assert.deepEqual(await readJsonBody(get), { message: "Match not found" });
      const res = await app.request("/api/admin/matches/999", {
        method: "PUT",
        headers: admin,
        json: form(),
      });
      assert.equal(res.status, 404);
      await res.body?.cancel();
    });
  } finally {
    await app.close();
  }
});

Deno.test("[admin matches] a match used by a competition cannot be deleted", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const home = await makeTeam(app.kv);
    const away = await makeTeam(app.kv);
    const created = await readJsonBody(
      await app.request("/api/admin/matches", {
        method: "POST",
        headers: admin,
        json: {
          homeTeamId: home.id,
          awayTeamId: away.id,
          league: "PREMIER_LEAGUE",
          kickoffTime: "2030-05-01T15:00:00Z",
          stadium: "Park",
        },
      }),
    );
    const c = await makeCompetition(app.kv, { name: "Derby Day", matchId: created.id }, {
      players: false,
    });
    const blocked = await app.request(`/api/admin/matches/${created.id}`, {
      method: "DELETE",
      headers: admin,
    });
    assert.equal(blocked.status, 409);
    const message = (await readJsonBody(blocked)).message;
    assert.match(message, /competition/);
    assert.ok(message.includes("Derby Day"));

    const del = await app.request(`/api/admin/competitions/${c.id}`, {
      method: "DELETE",
      headers: admin,
    });
    assert.equal(del.status, 200);
    await del.body?.cancel();
    const ok = await app.request(`/api/admin/matches/${created.id}`, {
      method: "DELETE",
      headers: admin,
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(await readJsonBody(ok), { message: "Match deleted" });
    const gone = await app.request(`/api/admin/matches/${created.id}`, { headers: admin });
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
  } finally {
    await app.close();
  }
});
