import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import {
  loginCookie,
  makeAdminHeaders,
  makeCompetition,
  makePlayer,
} from "@/tests/helpers/fixtures.ts";

const NOT_LIVE = "Competition is not LIVE. Events should only be created for live competitions.";

Deno.test("[admin events] only a LIVE competition takes events (409 otherwise)", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    for (const status of ["UPCOMING", "COMPLETED"] as const) {
      const c = await makeCompetition(app.kv, { status });
      const res = await app.request(`/api/admin/competitions/${c.id}/events`, {
        method: "POST",
        headers: admin,
        json: { playerId: c.players[0].id, eventType: "GOAL", minute: 10 },
      });
      assert.equal(res.status, 409, status);
      assert.deepEqual(await readJsonBody(res), { message: NOT_LIVE });
    }
  } finally {
    await app.close();
  }
});

Deno.test("[admin events] an event updates the performance and its deletion reverses it", async (t) => {
  const app = await makeTestApp();
  try {
    const cookie = await loginCookie(app);
    const headers = { cookie };
    const c = await makeCompetition(app.kv, { status: "LIVE" });
    const fwd = c.players.find((p) => p.position === "FWD")!;
    const base = `/api/admin/competitions/${c.id}`;
    const points = async () => {
      const rows = await readJsonBody(await app.request(`${base}/performances`, { headers }));
      return rows.find((r: { player: { id: number } }) => r.player.id === fwd.id).performance;
    };
    let eventId = 0;

    await t.step("POST with the session cookie creates the event (201)", async () => {
      const res = await app.request(`${base}/events`, {
        method: "POST",
        headers,
        json: { playerId: fwd.id, eventType: "GOAL", description: "Header", minute: "23" },
      });
      assert.equal(res.status, 201);
      const event = await readJsonBody(res);
      assert.equal(event.eventType, "GOAL");
      assert.equal(event.minute, 23);
      assert.equal(event.description, "Header");
      assert.equal(event.player.name, fwd.name);
      assert.ok(event.player.team.shortName);
      eventId = event.id;
      const perf = await points();
      assert.equal(perf.goals, 1);
      assert.equal(perf.totalPoints, 4);
    });
    await t.step("GET lists the events with player and team", async () => {
      const res = await app.request(`${base}/events`, { headers });
      assert.equal(res.status, 200);
      const events = await readJsonBody(res);
      assert.equal(events.length, 1);
      const team = c.teams.find((team) => team.id === fwd.teamId)!;
      assert.equal(events[0].player.team.shortName, team.shortName);
    });
    await t.step("DELETE reverses the event", async () => {
      const res = await app.request(`${base}/events/${eventId}`, { method: "DELETE", headers });
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), { message: "Event deleted" });
      const perf = await points();
      assert.equal(perf.goals, 0);
      assert.equal(perf.totalPoints, 0);
      const events = await readJsonBody(await app.request(`${base}/events`, { headers }));
      assert.equal(events.length, 0);
    });
    await t.step("deleting it again is a 404", async () => {
      const res = await app.request(`${base}/events/${eventId}`, { method: "DELETE", headers });
      assert.equal(res.status, 404);
      assert.deepEqual(await readJsonBody(res), { message: "Event not found" });
    });
    await t.step(
      "an event of a competition that stopped being LIVE can still be deleted",
      async () => {
        const created = await readJsonBody(
          await app.request(`${base}/events`, {
            method: "POST",
            headers,
            json: { playerId: fwd.id, eventType: "YELLOW_CARD" },
          }),
        );
        await updateCompetition(app.kv, c.id, { status: "COMPLETED" });
        const res = await app.request(`${base}/events/${created.id}`, {
          method: "DELETE",
          headers,
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
        assert.equal((await points()).yellowCards, 0);
      },
    );
  } finally {
    await app.close();
  }
});

Deno.test("[admin events] validation messages and unknown ids", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { status: "LIVE" });
    const post = (json: unknown, id = c.id) =>
      app.request(`/api/admin/competitions/${id}/events`, { method: "POST", headers: admin, json });
    const cases: [Record<string, unknown>, string][] = [
      [{ eventType: "GOAL" }, "Player is required"],
      [{ playerId: c.players[0].id }, "Event type is required"],
      [{ playerId: c.players[0].id, eventType: "DANCE" }, "Invalid event type"],
      [
        { playerId: c.players[0].id, eventType: "GOAL", minute: 200 },
        "Minute must be a whole number from 0 to 130",
      ],
    ];
    for (const [body, message] of cases) {
      await t.step(message, async () => {
        const res = await post(body);
        assert.equal(res.status, 400);
        assert.equal((await readJsonBody(res)).message, message);
      });
    }
    await t.step("a player outside the competition is a 400", async () => {
      const outsider = await makePlayer(app.kv);
      const res = await post({ playerId: outsider.id, eventType: "GOAL" });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Player is not part of this competition.");
    });
    await t.step("an unknown competition is a 404", async () => {
      const res = await post({ playerId: c.players[0].id, eventType: "GOAL" }, 999);
      assert.equal(res.status, 404);
      await res.body?.cancel();
      const del = await app.request("/api/admin/competitions/1/events/abc", {
        method: "DELETE",
        headers: admin,
      });
      assert.equal(del.status, 400);
      assert.deepEqual(await readJsonBody(del), {
        message: "Invalid id",
        issues: [{ path: ["eventId"], message: "Invalid id" }],
      });
    });
    await t.step("without credentials it is a 401", async () => {
      const res = await app.request(`/api/admin/competitions/${c.id}/events`, {
        method: "POST",
        json: { playerId: c.players[0].id, eventType: "GOAL" },
      });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });
  } finally {
    await app.close();
  }
});
