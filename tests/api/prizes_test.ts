import assert from "node:assert/strict";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { makeAdminHeaders, makeCompetition } from "@/tests/helpers/fixtures.ts";

Deno.test("[admin prizes] save and read a prize structure", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, {}, { players: false });
    const path = `/api/admin/competitions/${c.id}/prizes`;
    const post = (json: unknown) => app.request(path, { method: "POST", headers: admin, json });

    await t.step("POST an array of {position, prize, competitionId}", async () => {
      const res = await post([
        { position: 1, prize: "50", competitionId: c.id },
        { position: 2, prize: 30, competitionId: c.id },
        { position: 3, prize: 20.004, competitionId: c.id },
      ]);
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      assert.equal(body.message, "Prize structure updated");
      assert.deepEqual(body.prizes.map((p: { prize: number }) => p.prize), [50, 30, 20]);
    });
    await t.step("a second POST replaces the whole structure", async () => {
      const res = await post([{ position: 1, prize: 100, competitionId: c.id }]);
      assert.equal(res.status, 200);
      await res.body?.cancel();
      const admins = await readJsonBody(await app.request(path, { headers: admin }));
      assert.deepEqual(admins.map((p: { position: number }) => p.position), [1]);
      const pub = await readJsonBody(await app.request(`/api/competitions/${c.id}/prizes`));
      assert.deepEqual(pub.map((p: { prize: number }) => p.prize), [100]);
    });
    await t.step("validation messages", async () => {
      const cases: [unknown, string][] = [
        [[], "At least one prize position is required"],
        [[{ position: 0, prize: 10 }], "Position must be a positive integer"],
        [[{ position: 1.5, prize: 10 }], "Position must be a positive integer"],
        [[{ position: 1, prize: 0 }], "Prize amount must be positive"],
        [[{ position: 1, prize: 10 }, { position: 1, prize: 5 }], "Prize positions must be unique"],
        [{ position: 1, prize: 10 }, "At least one prize position is required"],
      ];
      for (const [body, message] of cases) {
        const res = await post(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal((await readJsonBody(res)).message, message);
      }
    });
    await t.step("an unknown competition is a 404", async () => {
      const res = await app.request("/api/admin/competitions/999/prizes", {
        method: "POST",
        headers: admin,
        json: [{ position: 1, prize: 10 }],
      });
      assert.equal(res.status, 404);
      assert.deepEqual(await readJsonBody(res), { message: "Competition not found" });
      const get = await app.request("/api/admin/competitions/999/prizes", { headers: admin });
      assert.equal(get.status, 404);
      await get.body?.cancel();
    });
  } finally {
    await app.close();
  }
});
