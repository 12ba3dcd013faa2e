import assert from "node:assert/strict";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { makeAdminHeaders, makeCompetition, makePlayer } from "@/tests/helpers/fixtures.ts";

Deno.test("[admin performances] list, save with computed points, refuse out-of-range", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv);
    const path = `/api/admin/competitions/${c.id}/performances`;
    const post = (performances: unknown) =>
      app.request(path, { method: "POST", headers: admin, json: { performances } });
    const gk = c.players.find((p) => p.position === "GK")!;
    const fwd = c.players.find((p) => p.position === "FWD")!;

    await t.step("GET gives one zero row per competition player, GK first", async () => {
      const res = await app.request(path, { headers: admin });
      assert.equal(res.status, 200);
      const rows = await readJsonBody(res);
      assert.equal(rows.length, 10);
      assert.equal(rows[0].player.position, "GK");
      assert.equal(rows[0].performance.totalPoints, 0);
      assert.ok(rows[0].player.team.shortName);
    });
    await t.step("POST saves and computes totals; bonus > 0 is stored as 3", async () => {
      const res = await post([
        {
          playerId: gk.id,
          minutesPlayed: 90,
          saves: 4,
          cleanSheet: true,
          bonus: 1,
          player: { position: "GK" },
          totalPoints: 999,
        },
        { playerId: fwd.id, minutesPlayed: "45", goals: "2", yellowCards: 1 },
      ]);
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      assert.equal(body.message, "Player performances updated successfully");
      const rows = await readJsonBody(await app.request(path, { headers: admin }));
      const gkRow = rows.find((r: { player: { id: number } }) => r.player.id === gk.id);
      // 60+ min 2, saves 4 × 0.5 = 2, clean sheet 4, bonus 3
      assert.equal(gkRow.performance.bonus, 3);
      assert.equal(gkRow.performance.totalPoints, 11);
      const fwdRow = rows.find((r: { player: { id: number } }) => r.player.id === fwd.id);
      // 1-59 min 1, goals 2 × 4 = 8, yellow −1
      assert.equal(fwdRow.performance.totalPoints, 8);
    });
    await t.step("out-of-range values are 400, nothing saved or clamped", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ minutesPlayed: 91 }, "Minutes must be between 0 and 90"],
        [{ minutesPlayed: -1 }, "Minutes must be between 0 and 90"],
        [{ yellowCards: 3 }, "Yellow cards must be between 0 and 2"],
        [{ goals: -1 }, "Goals must be a whole number of at least 0"],
        [{ saves: 1.5 }, "Saves must be a whole number of at least 0"],
        [{ bonus: -3 }, "Bonus must be 0 or more"],
      ];
      for (const [patch, message] of cases) {
        const res = await post([{ playerId: fwd.id, goals: 5, ...patch }]);
        assert.equal(res.status, 400, JSON.stringify(patch));
        const body = await readJsonBody(res);
        assert.equal(body.message, message);
        assert.deepEqual(body.issues[0].path.slice(0, 2), ["performances", 0]);
      }
      const rows = await readJsonBody(await app.request(path, { headers: admin }));
      const fwdRow = rows.find((r: { player: { id: number } }) => r.player.id === fwd.id);
      assert.equal(fwdRow.performance.goals, 2);
    });
    await t.step("a player outside the competition is a 400", async () => {
      const outsider = await makePlayer(app.kv);
      const res = await post([{ playerId: outsider.id, goals: 1 }]);
      assert.equal(res.status, 400);
      assert.match((await readJsonBody(res)).message, /not part of this competition/);
    });
    await t.step("a player listed twice is a 400", async () => {
      const res = await post([{ playerId: fwd.id }, { playerId: fwd.id }]);
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Each player may appear only once");
    });
    await t.step("an unknown competition is a 404", async () => {
      const res = await app.request("/api/admin/competitions/999/performances", {
        method: "POST",
        headers: admin,
        json: { performances: [] },
      });
      assert.equal(res.status, 404);
      await res.body?.cancel();
    });
  } finally {
    await app.close();
  }
});
