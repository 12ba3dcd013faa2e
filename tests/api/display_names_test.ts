/**
 * Display names are unique within a competition, case- and look-alike-insensitive: checked before
 * payment (409 naming `teamName`), again at the entry's commit (refunded), and on a team edit.
 */
import assert from "node:assert/strict";
import { migrateDisplayNames } from "@/lib/db/entries_by_email.ts";
import { keys } from "@/lib/store/keys.ts";
import { DISPLAY_NAME_TAKEN, nameSkeleton } from "@/lib/domain/display_name.ts";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import {
  makeCompetition,
  makeEntry,
  payTestIntent,
  type TestCompetition,
  validTeams,
} from "@/tests/helpers/fixtures.ts";

function openIntent(app: TestApp, c: TestCompetition, teamName: string, email: string) {
  return app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId: c.id, email, teamName, playerIds: validTeams(c)[1] },
  });
}

async function enter(app: TestApp, c: TestCompetition, teamName: string, email: string) {
  const stripePaymentId = await payTestIntent(app, c.id);
  return app.request("/api/entries", {
    method: "POST",
    json: { competitionId: c.id, email, teamName, playerIds: validTeams(c)[1], stripePaymentId },
  });
}

Deno.test("[display names] one per competition, whatever the case or look-alike letters", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { maxEntriesPerPerson: 3 });
    await makeEntry(app.kv, c, { teamName: "Commit Probe" });
    for (const name of ["Commit Probe", "COMMIT  PROBE", "Соmmit Probe", "Ｃｏｍｍｉｔ Probe"]) {
      await t.step(`${name}: refused before payment, naming the field`, async () => {
        const res = await openIntent(app, c, name, "other@example.com");
        assert.equal(res.status, 409);
        const body = await readJsonBody(res);
        assert.equal(body.message, DISPLAY_NAME_TAKEN);
        assert.deepEqual(body.issues, [{ path: ["teamName"], message: DISPLAY_NAME_TAKEN }]);
      });
    }
    await t.step("another name, or the same name in another competition, is fine", async () => {
      assert.equal((await openIntent(app, c, "Commit Probe 2", "other@example.com")).status, 200);
      const d = await makeCompetition(app.kv);
      assert.equal((await openIntent(app, d, "Commit Probe", "other@example.com")).status, 200);
    });
    await t.step("paid for a name taken meanwhile: refunded at commit", async () => {
      const res = await enter(app, c, "commit probe", "late@example.com");
      assert.equal(res.status, 409);
      assert.match((await readJsonBody(res)).message, /display name is already taken.*refunded/);
    });
  });
});

Deno.test("[display names] two payers racing for one name: one entry, one refund", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const [a, b] = await Promise.all([
      enter(app, c, "Race Name", "a@example.com"),
      enter(app, c, "RACE NAME", "b@example.com"),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [201, 409]);
    await a.body?.cancel();
    await b.body?.cancel();
  });
});

Deno.test("[display names] a team edit cannot take another entry's name; its own moves", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const [first, second] = validTeams(c);
    await makeEntry(app.kv, c, { teamName: "Taken Name", playerIds: first });
    const res = await enter(app, c, "Mine", "me@example.com");
    const { editToken } = await readJsonBody(res);
    const put = (teamName: string) =>
      app.request(`/api/team-edits/${editToken}`, {
        method: "PUT",
        json: { teamName, playerIds: second, revision: 0 },
      });
    const refused = await put("taken name");
    assert.equal(refused.status, 409);
    assert.equal((await readJsonBody(refused)).issues?.[0]?.path?.[0], "teamName");
    const renamed = await put("Mine Renamed");
    assert.equal(renamed.status, 200);
    await renamed.body?.cancel();
    // "Mine" is free again; "Mine Renamed" is held.
    assert.equal((await openIntent(app, c, "Mine", "x@example.com")).status, 200);
    assert.equal((await openIntent(app, c, "MINE renamed", "x@example.com")).status, 409);
  });
});

Deno.test("[display names] the migration records the names of older entries", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const older = await makeEntry(app.kv, c, { teamName: "Old Timers" });
    await app.kv.delete(keys.teamNameInCompetition(c.id, nameSkeleton("Old Timers")));
    assert.equal((await openIntent(app, c, "Old Timers", "n@example.com")).status, 200);
    await migrateDisplayNames(app.kv);
    await migrateDisplayNames(app.kv);
    const held = await app.kv.get(keys.teamNameInCompetition(c.id, nameSkeleton("old timers")));
    assert.equal(held.value, older.id);
    assert.equal((await openIntent(app, c, "Old Timers", "n@example.com")).status, 409);
  });
});
