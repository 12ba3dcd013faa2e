import assert from "node:assert/strict";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { makeAdminHeaders, makePlayer } from "@/tests/helpers/fixtures.ts";

Deno.test("[admin teams] create, list and list a team's players", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    let teamId = 0;
    await t.step("POST creates a team", async () => {
      const res = await app.request("/api/admin/teams", {
        method: "POST",
        headers: admin,
        json: { name: "Arsenal", shortName: "ARS", league: "PREMIER_LEAGUE", logoUrl: "" },
      });
      assert.equal(res.status, 201);
      const team = await readJsonBody(res);
      assert.equal(team.name, "Arsenal");
      assert.equal(team.logoUrl, null);
      teamId = team.id;
    });
    await t.step("GET lists teams by name", async () => {
      await app.request("/api/admin/teams", {
        method: "POST",
        headers: admin,
        json: { name: "Aston Villa", shortName: "AVL", league: "PREMIER_LEAGUE" },
      }).then((r) => r.body?.cancel());
      const res = await app.request("/api/admin/teams", { headers: admin });
      assert.equal(res.status, 200);
      assert.deepEqual((await readJsonBody(res)).map((t: { name: string }) => t.name), [
        "Arsenal",
        "Aston Villa",
      ]);
    });
    await t.step("validation messages", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ shortName: "X", league: "PREMIER_LEAGUE" }, "Team name is required"],
        [{ name: "X", league: "PREMIER_LEAGUE" }, "Short name is required"],
        [{ name: "X", shortName: "X", league: "MLS" }, "League is required"],
        [
          { name: "X", shortName: "X", league: "LA_LIGA", logoUrl: "javascript:alert(1)" },
          "Must be an http(s) URL or a path starting with /",
        ],
      ];
      for (const [body, message] of cases) {
        const res = await app.request("/api/admin/teams", {
          method: "POST",
          headers: admin,
          json: body,
        });
        assert.equal(res.status, 400);
        assert.equal((await readJsonBody(res)).message, message);
      }
    });
    await t.step("GET /teams/{id}/players lists its players with team", async () => {
      const player = await makePlayer(app.kv, { teamId, position: "GK" });
      await makePlayer(app.kv);
      const res = await app.request(`/api/admin/teams/${teamId}/players`, { headers: admin });
      assert.equal(res.status, 200);
      const players = await readJsonBody(res);
      assert.deepEqual(players.map((p: { id: number }) => p.id), [player.id]);
      assert.equal(players[0].team.shortName, "ARS");
    });
    await t.step("an unknown team is a 404", async () => {
      const res = await app.request("/api/admin/teams/999/players", { headers: admin });
      assert.equal(res.status, 404);
      assert.deepEqual(await readJsonBody(res), { message: "Team not found" });
    });
  } finally {
    await app.close();
  }
});
