import assert from "node:assert/strict";
import { listDailyAnalytics } from "../../lib/db/analytics.ts";
import { makeTestApp, readJsonBody } from "../helpers/app.ts";

Deno.test("[api] POST /api/analytics counts known events and refuses others", async (t) => {
  const app = await makeTestApp();
  try {
    await t.step("a known event answers 204 and is counted today", async () => {
      for (const name of ["page_view", "page_view", "add_player"]) {
        const res = await app.request("/api/analytics", {
          method: "POST",
          json: { name, path: "/team-selection/1", competitionId: 1, props: { playerId: 4 } },
        });
        assert.equal(res.status, 204);
      }
      const [today] = await listDailyAnalytics(app.kv, { days: 1, now: new Date() });
      assert.deepEqual(today.counts, { page_view: 2, add_player: 1 });
    });

    await t.step("an unknown event name is a 400 with issues", async () => {
      const res = await app.request("/api/analytics", { method: "POST", json: { name: "hack" } });
      assert.equal(res.status, 400);
      const body = await readJsonBody(res);
      assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path), [["name"]]);
    });

    await t.step("a body that is not JSON is a 400", async () => {
      const res = await app.request("/api/analytics", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{nope",
      });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Invalid JSON body");
    });
  } finally {
    await app.close();
  }
});
