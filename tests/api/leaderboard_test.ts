import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { seedContest } from "@/tests/unit/live/seed.ts";

interface Row {
  id: number;
  teamId: string;
  teamName: string;
  displayName: string;
  points: number;
  rank: number;
  prize: number | null;
}

Deno.test("[api] GET /api/competitions/{id}/leaderboard", async (t) => {
  const app = await makeTestApp();
  const competition = await makeCompetition(app.kv);
  const first = await makeEntry(app.kv, competition, { teamName: "Alpha FC" });
  const second = await makeEntry(app.kv, competition, {
    teamName: "Bravo FC",
    playerIds: [5, 6, 8, 2, 4].map((i) => competition.players[i].id),
  });

  await t.step("UPCOMING: everyone at 0, rank 1, prize null, no private fields", async () => {
    const res = await app.request(`/api/competitions/${competition.id}/leaderboard`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    assert.equal(res.headers.get("x-total-count"), "2");
    const rows = await readJsonBody<Row[]>(res);
    assert.deepEqual(rows.map((r) => [r.teamId, r.rank, r.points, r.prize]), [
      [first.teamId, 1, 0, null],
      [second.teamId, 1, 0, null],
    ]);
    assert.equal(rows[0].displayName, "Alpha FC");
    assert.ok(rows.every((r) => !("email" in r) && !("stripePaymentId" in r)));
  });

  await t.step("LIVE: a GOAL event re-ranks at once", async () => {
    await updateCompetition(app.kv, competition.id, { status: "LIVE" });
    const scorer = second.playerIds.find((id) => !first.playerIds.includes(id))!;
    await createGameEvent(app.kv, competition.id, { playerId: scorer, eventType: "GOAL" });
    const rows = await readJsonBody<Row[]>(
      await app.request(`/api/competitions/${competition.id}/leaderboard`),
    );
    assert.equal(rows[0].teamId, second.teamId);
    assert.equal(rows[0].rank, 1);
    assert.ok(rows[0].points > 0);
    assert.equal(rows[1].rank, 2);
  });

  await t.step("COMPLETED shows prizes", async () => {
    await setPrizeStructure(app.kv, competition.id, [
      { position: 1, prize: 70 },
      { position: 2, prize: 30 },
    ]);
    await updateCompetition(app.kv, competition.id, { status: "COMPLETED" });
    const rows = await readJsonBody<Row[]>(
      await app.request(`/api/competitions/${competition.id}/leaderboard`),
    );
    assert.deepEqual(rows.map((r) => r.prize), [70, 30]);
  });

  await t.step("unchanged standings revalidate to 304 with the ETag", async () => {
    const path = `/api/competitions/${competition.id}/leaderboard`;
    const res = await app.request(path);
    await res.body?.cancel();
    const etag = res.headers.get("etag")!;
    assert.ok(etag);
    const again = await app.request(path, { headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    await again.body?.cancel();
  });

  await t.step("unknown competition → 404, bad id → 400", async () => {
    const missing = await app.request("/api/competitions/9999/leaderboard");
    assert.equal(missing.status, 404);
    assert.deepEqual(await readJsonBody(missing), { message: "Competition not found" });
    const bad = await app.request("/api/competitions/abc/leaderboard");
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  });

  await app.close();
});

Deno.test("[api] leaderboard pages with limit/offset and adds own rows via teamIds", async (t) => {
  const app = await makeTestApp();
  const contest = await seedContest(app.kv, { entries: 250 });
  const cid = contest.competition.id;
  await savePerformances(app.kv, cid, [{ playerId: contest.players[3].id, goals: 2 }]);
  const path = `/api/competitions/${cid}/leaderboard`;
  const all = await readJsonBody<Row[]>(await app.request(`${path}?limit=500`));
  assert.equal(all.length, 250);

  await t.step("the plain call gives the first 100", async () => {
    const res = await app.request(path);
    assert.equal(res.headers.get("x-total-count"), "250");
    assert.equal(res.headers.get("x-limit"), "100");
    assert.equal(res.headers.get("x-offset"), "0");
    assert.deepEqual(await readJsonBody<Row[]>(res), all.slice(0, 100));
  });

  await t.step("offset and limit select a slice", async () => {
    const rows = await readJsonBody<Row[]>(await app.request(`${path}?limit=50&offset=200`));
    assert.deepEqual(rows, all.slice(200, 250));
  });

  await t.step("teamIds appends rows not on the page, once", async () => {
    const far = all[240].teamId;
    const near = all[2].teamId;
    const rows = await readJsonBody<Row[]>(
      await app.request(`${path}?limit=10&teamIds=${far},${near},FFT-NOPE`),
    );
    assert.equal(rows.length, 11);
    assert.deepEqual(rows.slice(0, 10), all.slice(0, 10));
    assert.deepEqual(rows[10], all[240]);
  });

  await t.step("out-of-range parameters are a 400 with issues", async () => {
    for (const query of ["limit=0", "limit=501", "offset=-1", "limit=abc", "offset=1.5"]) {
      const res = await app.request(`${path}?${query}`);
      assert.equal(res.status, 400, query);
      const body = await readJsonBody(res);
      assert.ok(body.message && Array.isArray(body.issues), query);
    }
  });

  await app.close();
});

Deno.test("[api] GET /api/competitions/{id}/events lists newest first with player and team", async () => {
  const app = await makeTestApp();
  const competition = await makeCompetition(app.kv, { status: "LIVE" });
  const [gk, def] = competition.players;
  await createGameEvent(app.kv, competition.id, { playerId: gk.id, eventType: "SAVE", minute: 3 });
  await createGameEvent(app.kv, competition.id, {
    playerId: def.id,
    eventType: "GOAL",
    minute: 17,
    description: "Header",
  });
  const res = await app.request(`/api/competitions/${competition.id}/events`);
  assert.equal(res.status, 200);
  const events = await readJsonBody(res);
  assert.deepEqual(
    events.map((e: { eventType: string; minute: number }) => [e.eventType, e.minute]),
    [["GOAL", 17], ["SAVE", 3]],
  );
  assert.equal(events[0].player.name, def.name);
  assert.equal(events[0].player.team.shortName, competition.teams[0].shortName);
  assert.equal(events[0].description, "Header");
  const limited = await readJsonBody(
    await app.request(`/api/competitions/${competition.id}/events?limit=1`),
  );
  assert.equal(limited.length, 1);
  const missing = await app.request("/api/competitions/9999/events");
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
  const bad = await app.request(`/api/competitions/${competition.id}/events?limit=0`);
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  await app.close();
});
