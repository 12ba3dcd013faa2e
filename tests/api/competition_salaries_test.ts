import assert from "node:assert/strict";
import { readJsonBody } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeCompetition,
  payTestIntent,
  validPicks,
  withAdminApp,
} from "@/tests/helpers/fixtures.ts";
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { migrateCompetitionPlayerSalaries } from "@/lib/db/competition_players.ts";
import { keys } from "@/lib/store/keys.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";

type Priced = { id: number; salary: number };

Deno.test("[salaries] a salary is per competition; paid picks keep their prices", async (t) => {
  await withAdminApp(async (app, admin) => {
    const a = await makeCompetition(app.kv, { salaryCap: 50000 });
    const b = await makeCompetition(app.kv, { salaryCap: 50000 });
    await addCompetitionPlayers(app.kv, b.id, a.players.map((p) => p.id));
    const star = validPicks(a)[0];
    const priceIn = async (cid: number) => {
      const list: Priced[] = await readJsonBody(
        await app.request(`/api/competitions/${cid}/players`),
      );
      return list.find((p) => p.id === star)!.salary;
    };

    const paymentId = await payTestIntent(app, a.id);
    const res = await app.request("/api/entries", {
      method: "POST",
      json: entryBody(a, paymentId),
    });
    assert.equal(res.status, 201);
    const { teamId } = await readJsonBody(res);

    await t.step("PATCH changes the salary in that competition only", async () => {
      const patch = await app.request(`/api/admin/competitions/${a.id}/players/${star}`, {
        method: "PATCH",
        headers: admin,
        json: { salary: 7500 },
      });
      assert.equal(patch.status, 200);
      assert.deepEqual(await readJsonBody(patch), { playerId: star, salary: 7500 });
      assert.equal(await priceIn(a.id), 7500);
      assert.equal(await priceIn(b.id), 1000);
      const admins: Priced[] = await readJsonBody(
        await app.request(`/api/admin/competitions/${b.id}/players`, { headers: admin }),
      );
      assert.equal(admins.find((p) => p.id === star)!.salary, 1000);
    });

    await t.step("the paid entry keeps the price it was paid at", async () => {
      // Picks are public once locked: read them live, then reopen for the steps below.
      await updateCompetition(app.kv, a.id, { status: "LIVE" });
      const details = await readJsonBody(await app.request(`/api/entries/${teamId}/details`));
      assert.equal(details.players.find((p: Priced) => p.id === star).salary, 1000);
      await updateCompetition(app.kv, a.id, { status: "UPCOMING" });
    });

    await t.step("bad salary → 400 with the field; unknown link → 404", async () => {
      const bad = await app.request(`/api/admin/competitions/${a.id}/players/${star}`, {
        method: "PATCH",
        headers: admin,
        json: { salary: 50 },
      });
      assert.equal(bad.status, 400);
      assert.deepEqual((await readJsonBody(bad)).issues[0].path, ["salary"]);
      const missing = await app.request(`/api/admin/competitions/${a.id}/players/99999`, {
        method: "PATCH",
        headers: admin,
        json: { salary: 5000 },
      });
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    });

    await t.step("the server checks the cap at the competition's prices", async () => {
      await app.request(`/api/admin/competitions/${b.id}/players/${star}`, {
        method: "PATCH",
        headers: admin,
        json: { salary: 49000 },
      }).then((r) => r.body?.cancel());
      const intent = await app.request("/api/create-payment-intent", {
        method: "POST",
        json: {
          competitionId: b.id,
          playerIds: validPicks(a),
          email: "x@example.com",
          teamName: "Capped",
        },
      });
      assert.equal(intent.status, 400);
      assert.match((await readJsonBody(intent)).message, /salary/i);
    });
  });
});

Deno.test("[salaries] the migration prices old links at the player's default", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const player = c.players[0];
    await app.kv.set(keys.competitionPlayer(c.id, player.id), player.id);
    assert.equal(await migrateCompetitionPlayerSalaries(app.kv), 1);
    assert.deepEqual((await app.kv.get(keys.competitionPlayer(c.id, player.id))).value, {
      playerId: player.id,
      salary: player.salary,
    });
    assert.equal(await migrateCompetitionPlayerSalaries(app.kv), 0);
  });
});
