import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { computeStandings } from "@/lib/db/standings.ts";
import { displayName } from "@/lib/domain/format.ts";
import { LeaderboardCache, type Standings } from "@/lib/live/leaderboard_cache.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { seedContest } from "./seed.ts";

/** The cache's full ranking against the reference full scan of lib/db/standings.ts. */
async function assertSameAsReference(kv: Deno.Kv, standings: Standings): Promise<void> {
  const cid = standings.competition.id;
  const reference = await computeStandings(kv, cid);
  const rows = standings.rows(0, standings.total);
  assert.equal(rows.length, reference.length);
  const completed = standings.competition.status === "COMPLETED";
  rows.forEach((row, i) => {
    const ref = reference[i];
    assert.deepEqual(
      [row.id, row.teamId, row.points, row.rank],
      [ref.entryId, ref.teamId, ref.points, ref.rank],
      `row ${i}`,
    );
    assert.equal(row.prize, completed ? ref.prize : null, `prize of row ${i}`);
    assert.equal(
      row.customPrizeDescription,
      completed ? ref.customPrizeDescription : null,
      `description of row ${i}`,
    );
  });
}

Deno.test("[live] leaderboard cache ranks exactly like computeStandings", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const contest = await seedContest(kv, { entries: 60 });
  const cid = contest.competition.id;
  const cache = new LeaderboardCache(kv);

  await t.step("everyone tied at 0 shares rank 1", async () => {
    const standings = (await cache.standings(cid))!;
    assert.equal(standings.total, 60);
    assert.equal(standings.hasScorers, false);
    assert.ok(standings.rows(0, 60).every((row) => row.rank === 1 && row.points === 0));
    await assertSameAsReference(kv, standings);
  });

  await t.step("performances with ties and half points", async () => {
    await savePerformances(
      kv,
      cid,
      contest.players.map((p, i) => ({
        playerId: p.id,
        minutesPlayed: i % 3 === 0 ? 90 : 30,
        goals: i % 4 === 0 ? 1 : 0,
        saves: p.position === "GK" ? i % 3 : 0,
        yellowCards: i % 5 === 0 ? 1 : 0,
      })),
    );
    const standings = (await cache.standings(cid))!;
    assert.equal(standings.hasScorers, true);
    const ranks = standings.rows(0, 60).map((row) => row.rank);
    assert.ok(new Set(ranks).size < 60, "the seed has ties");
    await assertSameAsReference(kv, standings);
  });

  await t.step("a game event moves the points", async () => {
    const before = (await cache.standings(cid))!;
    await createGameEvent(kv, cid, { playerId: contest.players[1].id, eventType: "GOAL" });
    const after = (await cache.standings(cid))!;
    assert.notEqual(after.version, before.version);
    assert.notEqual(after.signature, before.signature);
    await assertSameAsReference(kv, after);
  });

  await t.step("CASH prizes once COMPLETED, split across ties", async () => {
    await setPrizeStructure(kv, cid, [
      { position: 1, prize: 500 },
      { position: 2, prize: 300 },
      { position: 3, prize: 150 },
      { position: 4, prize: 50 },
    ]);
    const live = (await cache.standings(cid))!;
    assert.ok(live.rows(0, 10).every((row) => row.prize === null), "no prizes while LIVE");
    await updateCompetition(kv, cid, { status: "COMPLETED" });
    const done = (await cache.standings(cid))!;
    const total = done.rows(0, done.total).reduce((sum, row) => sum + (row.prize ?? 0), 0);
    assert.equal(Math.round(total * 100), 100_000);
    await assertSameAsReference(kv, done);
  });

  kv.close();
});

Deno.test("[live] leaderboard cache gives NON_CASH descriptions like computeStandings", async () => {
  const kv = await Deno.openKv(":memory:");
  const contest = await seedContest(kv, {
    entries: 12,
    prizeType: "NON_CASH",
    customPrizeDescription: "Signed shirt",
  });
  const cid = contest.competition.id;
  await savePerformances(kv, cid, [{ playerId: contest.players[0].id, goals: 2 }]);
  await setPrizeStructure(kv, cid, [{ position: 1, prize: 100 }, { position: 2, prize: 50 }]);
  await updateCompetition(kv, cid, { status: "COMPLETED" });
  const standings = (await new LeaderboardCache(kv).standings(cid))!;
  assert.equal(standings.rows(0, 1)[0].customPrizeDescription, "Signed shirt");
  await assertSameAsReference(kv, standings);
  kv.close();
});

Deno.test("[live] ties follow createdAt, then id, even when createdAt is out of id order", async () => {
  const kv = await Deno.openKv(":memory:");
  const stamps = [5, 1, 3, 1, 4, 2].map((s) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)));
  const contest = await seedContest(kv, {
    entries: 6,
    createdAt: (i) => stamps[i].toISOString(),
  });
  const standings = (await new LeaderboardCache(kv).standings(contest.competition.id))!;
  const order = standings.rows(0, 6).map((row) => contest.entryIds.indexOf(row.id));
  assert.deepEqual(order, [1, 3, 5, 2, 4, 0]);
  await assertSameAsReference(kv, standings);
  kv.close();
});

Deno.test("[live] leaderboard cache reuses a snapshot until the live key moves", async (t) => {
  const kv = await Deno.openKv(":memory:");
  const contest = await seedContest(kv, { entries: 5, status: "UPCOMING" });
  const cid = contest.competition.id;
  const cache = new LeaderboardCache(kv);

  await t.step("same version, same object; concurrent reads share one rebuild", async () => {
    const [a, b] = await Promise.all([cache.standings(cid), cache.standings(cid)]);
    assert.equal(a, b);
    assert.equal(await cache.standings(cid), a);
  });

  await t.step("new entries are appended on the next read", async () => {
    const more = await seedContest(kv, { entries: 3 });
    const first = (await cache.standings(cid))!;
    await kv.set(["live", cid], new Deno.KvU64(99n));
    const again = (await cache.standings(cid))!;
    assert.notEqual(again, first);
    assert.equal(again.total, 5, "entries of another competition are not mixed in");
    const other = (await cache.standings(more.competition.id))!;
    assert.equal(other.total, 3);
  });

  await t.step("a missing competition gives null", async () => {
    assert.equal(await cache.standings(9999), null);
  });

  kv.close();
});

Deno.test("[live] standings pages are slices and team lookups find any row", async () => {
  const kv = await Deno.openKv(":memory:");
  const contest = await seedContest(kv, {
    entries: 250,
    teamName: (i) => (i === 7 ? "" : `T${i}`),
  });
  const cid = contest.competition.id;
  await savePerformances(kv, cid, [{ playerId: contest.players[2].id, goals: 1 }]);
  const cache = new LeaderboardCache(kv);
  const standings = (await cache.standings(cid))!;
  const all = standings.rows(0, 1000);
  assert.equal(all.length, 250);
  assert.deepEqual(standings.rows(100, 100), all.slice(100, 200));
  assert.deepEqual(standings.rows(240, 100), all.slice(240));
  assert.deepEqual(standings.rows(300, 100), []);
  const wanted = [all[230].teamId, all[3].teamId, "FFT-UNKNOWN"];
  assert.deepEqual(await cache.rowsForTeams(standings, wanted), [all[3], all[230]]);
  const blank = all.find((row) => row.id === contest.entryIds[7])!;
  assert.equal(blank.displayName, displayName("", blank.teamId));
  assert.match(blank.displayName, /^Entry \S+$/);
  assert.ok(all.every((row) => !("email" in row) && !("stripePaymentId" in row)));
  kv.close();
});

Deno.test("[live] interleaved entries of several competitions are read by id", async () => {
  const kv = await Deno.openKv(":memory:");
  const competitions = [
    await makeCompetition(kv),
    await makeCompetition(kv),
    await makeCompetition(kv),
  ];
  for (let round = 0; round < 4; round++) {
    for (const competition of competitions) await makeEntry(kv, competition);
  }
  const cache = new LeaderboardCache(kv);
  for (const competition of competitions) {
    await savePerformances(kv, competition.id, [
      { playerId: competition.players[0].id, saves: 3 },
    ]);
    const standings = (await cache.standings(competition.id))!;
    assert.equal(standings.total, 4);
    await assertSameAsReference(kv, standings);
  }
  const late = await makeEntry(kv, competitions[1]);
  const standings = (await cache.standings(competitions[1].id))!;
  assert.equal(standings.total, 5);
  assert.ok(standings.rows(0, 5).some((row) => row.id === late.id));
  kv.close();
});
