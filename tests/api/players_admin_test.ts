import assert from "node:assert/strict";
import { readJsonBody } from "@/tests/helpers/app.ts";
import { makeCompetition, makePlayer, makeTeam, withAdminApp } from "@/tests/helpers/fixtures.ts";

Deno.test("[admin players] competition players: list, add, remove, available", async (t) => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv);
    const outsider = await makePlayer(app.kv, { position: "FWD", salary: 9000 });
    const base = `/api/admin/competitions/${c.id}`;

    await t.step("GET players lists the ten with teams", async () => {
      const res = await app.request(`${base}/players`, { headers: admin });
      assert.equal(res.status, 200);
      const list = await readJsonBody(res);
      assert.equal(list.length, 10);
      assert.ok(list.every((p: { team: unknown }) => p.team));
    });
    await t.step("available players are the ones not in it", async () => {
      const res = await app.request(`${base}/available-players`, { headers: admin });
      assert.equal(res.status, 200);
      assert.deepEqual((await readJsonBody(res)).map((p: { id: number }) => p.id), [outsider.id]);
    });
    await t.step("POST adds: 'Added 1 player to the competition'", async () => {
      const res = await app.request(`${base}/players`, {
        method: "POST",
        headers: admin,
        json: { playerIds: [outsider.id] },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), {
        message: "Added 1 player to the competition",
        count: 1,
      });
      const pub = await readJsonBody(await app.request(`/api/competitions/${c.id}/players`));
      assert.equal(pub.length, 11);
    });
    await t.step("DELETE removes: 'Removed 2 players from the competition'", async () => {
      const res = await app.request(`${base}/players`, {
        method: "DELETE",
        headers: admin,
        json: { playerIds: [outsider.id, c.players[0].id] },
      });
      assert.equal(res.status, 200);
      assert.equal((await readJsonBody(res)).message, "Removed 2 players from the competition");
      const pub = await readJsonBody(await app.request(`/api/competitions/${c.id}/players`));
      assert.equal(pub.length, 9);
    });
    await t.step("an empty selection is 'No Players Selected'", async () => {
      for (const method of ["POST", "DELETE"]) {
        const res = await app.request(`${base}/players`, {
          method,
          headers: admin,
          json: { playerIds: [] },
        });
        assert.equal(res.status, 400);
        assert.equal((await readJsonBody(res)).message, "No Players Selected");
      }
    });
    await t.step("unknown player ids are a 400", async () => {
      const res = await app.request(`${base}/players`, {
        method: "POST",
        headers: admin,
        json: { playerIds: [9999] },
      });
      assert.equal(res.status, 400);
      await res.body?.cancel();
    });
    await t.step("an unknown competition is a 404", async () => {
      for (const path of ["players", "available-players"]) {
        const res = await app.request(`/api/admin/competitions/999/${path}`, { headers: admin });
        assert.equal(res.status, 404, path);
        await res.body?.cancel();
      }
      const add = await app.request("/api/admin/competitions/999/players", {
        method: "POST",
        headers: admin,
        json: { playerIds: [outsider.id] },
      });
      assert.equal(add.status, 404);
      await add.body?.cancel();
    });
  });
});

Deno.test("[admin players] POST /api/admin/players creates with defaults", async (t) => {
  await withAdminApp(async (app, admin) => {
    const team = await makeTeam(app.kv);
    await t.step("created with salary 1000 and zero stats", async () => {
      const res = await app.request("/api/admin/players", {
        method: "POST",
        headers: admin,
        json: { name: "Kai Striker", position: "FWD", teamId: team.id, imageUrl: "" },
      });
      assert.equal(res.status, 201);
      const player = await readJsonBody(res);
      assert.equal(player.salary, 1000);
      assert.equal(player.goals, 0);
      assert.equal(player.imageUrl, null);
      assert.equal(player.team.name, team.name);
    });
    await t.step("name and position are required", async () => {
      for (const body of [{ position: "GK", teamId: team.id }, { name: "X", teamId: team.id }]) {
        const res = await app.request("/api/admin/players", {
          method: "POST",
          headers: admin,
          json: body,
        });
        assert.equal(res.status, 400);
        assert.equal((await readJsonBody(res)).message, "Player name and position are required");
      }
    });
    await t.step("salary below 100 is refused", async () => {
      const res = await app.request("/api/admin/players", {
        method: "POST",
        headers: admin,
        json: { name: "Cheap", position: "MID", teamId: team.id, salary: 50 },
      });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Salary must be at least 100");
    });
    await t.step("an unknown team is a 400", async () => {
      const res = await app.request("/api/admin/players", {
        method: "POST",
        headers: admin,
        json: { name: "Lost", position: "MID", teamId: 999 },
      });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Team 999 does not exist.");
    });
  });
});

Deno.test("[admin players] PATCH changes the salary alone or other fields", async () => {
  await withAdminApp(async (app, admin) => {
    const player = await makePlayer(app.kv, { position: "DEF" });
    const salary = await app.request(`/api/admin/players/${player.id}`, {
      method: "PATCH",
      headers: admin,
      json: { salary: "7500" },
    });
    assert.equal(salary.status, 200);
    const updated = await readJsonBody(salary);
    assert.equal(updated.salary, 7500);
    assert.equal(updated.position, "DEF");
    assert.equal(updated.name, player.name);

    const renamed = await app.request(`/api/admin/players/${player.id}`, {
      method: "PATCH",
      headers: admin,
      json: { name: "New Name", goals: 3 },
    });
    assert.equal(renamed.status, 200);
    const body = await readJsonBody(renamed);
    assert.equal(body.name, "New Name");
    assert.equal(body.goals, 3);
    assert.equal(body.salary, 7500);

    const empty = await app.request(`/api/admin/players/${player.id}`, {
      method: "PATCH",
      headers: admin,
      json: {},
    });
    assert.equal(empty.status, 400);
    assert.equal((await readJsonBody(empty)).message, "No fields to update");

    const missing = await app.request("/api/admin/players/999", {
      method: "PATCH",
      headers: admin,
      json: { salary: 2000 },
    });
    assert.equal(missing.status, 404);
    assert.deepEqual(await readJsonBody(missing), { message: "Player not found" });

    const badId = await app.request("/api/admin/players/x1", {
      method: "PATCH",
      headers: admin,
      json: { salary: 2000 },
    });
    assert.equal(badId.status, 400);
    assert.deepEqual(await readJsonBody(badId), {
      message: "Invalid id",
      issues: [{ path: ["id"], message: "Invalid id" }],
    });
  });
});
