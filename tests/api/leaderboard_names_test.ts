/**
 * Entries that share a display name (made before names were unique per contest) can be told
 * apart on the leaderboard: each shows its team ID after the name.
 */
import assert from "node:assert/strict";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeLegacyEntry } from "@/tests/helpers/fixtures.ts";
import { distinctName, nameKey } from "@/lib/domain/format.ts";

async function names(app: TestApp, cid: number): Promise<Map<string, string>> {
  const res = await app.request(`/api/competitions/${cid}/leaderboard`);
  assert.equal(res.status, 200);
  const rows: { teamId: string; teamName: string; displayName: string }[] = await readJsonBody(res);
  return new Map(rows.map((r) => [r.teamId, r.displayName]));
}

Deno.test("[leaderboard] three entries named alike show their team IDs; a unique name stays as it is", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const probes = [
      await makeLegacyEntry(app.kv, c, "Commit Probe"),
      await makeLegacyEntry(app.kv, c, "Commit Probe"),
      await makeLegacyEntry(app.kv, c, "COMMIT  probe"), // case and spacing folded
    ];
    const solo = await makeLegacyEntry(app.kv, c, "Solo United");
    await t.step("the shared name carries each entry's team ID", async () => {
      const shown = await names(app, c.id);
      for (const probe of probes) {
        assert.equal(shown.get(probe.teamId), distinctName(probe.teamName, probe.teamId));
        assert.ok(shown.get(probe.teamId)!.endsWith(probe.teamId.slice(4)));
      }
      assert.equal(new Set(probes.map((p) => shown.get(p.teamId))).size, 3, "all different");
      assert.equal(shown.get(solo.teamId), "Solo United");
    });
    await t.step("a later entry of the same name marks both", async () => {
      const twin = await makeLegacyEntry(app.kv, c, "Solo United");
      const shown = await names(app, c.id);
      assert.equal(shown.get(solo.teamId), distinctName("Solo United", solo.teamId));
      assert.equal(shown.get(twin.teamId), distinctName("Solo United", twin.teamId));
    });
  });
});

Deno.test("[leaderboard] nameKey folds case, compatibility forms and spacing only", () => {
  assert.equal(nameKey("Commit Probe"), nameKey("COMMIT  probe"));
  assert.equal(nameKey("Ｃｏｍｍｉｔ Probe"), nameKey("commit probe"), "full-width letters");
  assert.notEqual(nameKey("Commit Probe"), nameKey("Commit Probes"));
});
