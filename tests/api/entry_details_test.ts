import assert from "node:assert/strict";
import { savePerformances } from "@/lib/db/performances.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

const ENTRY_KEYS = [
  "competitionId",
  "createdAt",
  "customPrizeDescription",
  "email",
  "id",
  "points",
  "prize",
  "prizeType",
  "rank",
  "stripePaymentId",
  "teamId",
  "teamName",
  "totalPoints",
];
const COMPETITION_KEYS = [
  "currency",
  "currentEntries",
  "customPrizeDescription",
  "deadline",
  "description",
  "entryFee",
  "id",
  "imageUrl",
  "league",
  "matchId",
  "maxEntries",
  "name",
  "prizePool",
  "prizeType",
  "salaryCap",
  "status",
];
const PLAYER_KEYS = [
  "assists",
  "cleanSheets",
  "goals",
  "id",
  "imageUrl",
  "name",
  "points",
  "pointsBreakdown",
  "position",
  "salary",
  "team",
  "teamId",
];
const BREAKDOWN_KEYS = [
  "assists",
  "cleanSheets",
  "goals",
  "ownGoals",
  "penaltyMisses",
  "penaltySaves",
  "redCards",
  "saves",
  "totalPoints",
  "yellowCards",
];

Deno.test("[entry details] the API shape with points per player", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { status: "UPCOMING" });
    const entry = await makeEntry(app.kv, c, { email: "jane@example.com" });
    const [gkId, defId, , , fwdId] = entry.playerIds;
    await savePerformances(app.kv, c.id, [
      { playerId: gkId, minutesPlayed: 90, saves: 3, cleanSheet: true, goalsConceded: 0 },
      { playerId: defId, minutesPlayed: 90, goals: 1, yellowCards: 1, goalsConceded: 3 },
      { playerId: fwdId, minutesPlayed: 30, goals: 2, ownGoals: 1, bonus: 3 },
    ]);
    const hidden = await readJsonBody(await app.request(`/api/entries/${entry.teamId}/details`));
    assert.equal(hidden.players.length, 0, "picks stay private until they lock");
    assert.equal(hidden.hiddenPicks, 5);
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    const res = await app.request(`/api/entries/${entry.teamId}/details`);
    assert.equal(res.status, 200);
    const body = await readJsonBody(res);

    await t.step("every field of the shape is present", () => {
      for (const key of ENTRY_KEYS) assert.ok(key in body.entry, `entry.${key}`);
      for (const key of COMPETITION_KEYS) assert.ok(key in body.competition, `competition.${key}`);
      assert.equal(body.players.length, 5);
      for (const player of body.players) {
        for (const key of PLAYER_KEYS) assert.ok(key in player, `player.${key}`);
        assert.deepEqual(Object.keys(player.pointsBreakdown).sort(), BREAKDOWN_KEYS);
        for (const key of ["id", "name", "shortName", "league", "logoUrl"]) {
          assert.ok(key in player.team, `team.${key}`);
        }
      }
    });
    await t.step("numbers are numbers; private fields are masked", () => {
      assert.equal(typeof body.entry.points, "number");
      assert.equal(typeof body.competition.entryFee, "number");
      assert.equal(typeof body.players[0].salary, "number");
      assert.equal(body.entry.email, "j***@example.com");
      assert.notEqual(body.entry.stripePaymentId, entry.stripePaymentId);
      assert.ok(!JSON.stringify(body).includes(entry.stripePaymentId));
    });
    await t.step("players' points, breakdown lines and the entry total agree", () => {
      const byId = new Map(body.players.map((p: { id: number }) => [p.id, p]));
      // GK: 60+ 2, saves 3 × 0.5 = 1.5, clean sheet 4
      assert.equal((byId.get(gkId) as { points: number }).points, 7.5);
      // DEF: 60+ 2, goal 6, yellow −1, conceded 3 → 1 × −1
      assert.equal((byId.get(defId) as { points: number }).points, 6);
      // FWD: 1-59 1, goals 2 × 4 = 8, own goal −2, bonus 3
      const fwd = byId.get(fwdId) as {
        points: number;
        pointsBreakdown: Record<string, number>;
        breakdown: { count: number; value: number; points: number }[];
      };
      assert.equal(fwd.points, 10);
      assert.equal(fwd.pointsBreakdown.goals, 8);
      assert.equal(fwd.pointsBreakdown.ownGoals, -2);
      assert.equal(fwd.pointsBreakdown.totalPoints, 10);
      for (const player of body.players) {
        const sum = player.breakdown.reduce((s: number, l: { points: number }) => s + l.points, 0);
        assert.equal(Math.round(sum * 10) / 10, player.points);
        for (const line of player.breakdown) {
          assert.equal(Math.round(line.count * line.value * 10) / 10, line.points);
        }
      }
      assert.equal(body.entry.points, 23.5);
      assert.equal(body.entry.totalPoints, 23.5);
    });
    await t.step("the numeric entry id is not a public key (not enumerable)", async () => {
      const res = await app.request(`/api/entries/${entry.id}/details`);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    });
    await t.step("a player without a performance has 0 points and no lines", async () => {
      const again = await readJsonBody(await app.request(`/api/entries/${entry.teamId}/details`));
      const idle = again.players.find((p: { id: number }) => p.id === entry.playerIds[2]);
      assert.equal(idle.points, 0);
      assert.deepEqual(idle.breakdown, []);
      assert.equal(idle.pointsBreakdown.totalPoints, 0);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[entry details] an unknown entry is a 404 with error 'Entry not found'", async () => {
  const app = await makeTestApp();
  try {
    for (const id of ["FFT-UNKNOWN", "12345"]) {
      const res = await app.request(`/api/entries/${id}/details`);
      assert.equal(res.status, 404);
      assert.deepEqual(await readJsonBody(res), {
        message: "Entry not found",
        error: "Entry not found",
      });
    }
  } finally {
    await app.close();
  }
});
