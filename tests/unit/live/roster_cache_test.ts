import assert from "node:assert/strict";
import { computeStandings } from "@/lib/db/standings.ts";
import { keys } from "@/lib/db/keys.ts";
import { COMPACT_AT, type RosterMeta } from "@/lib/db/roster.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import { seedContest } from "./seed.ts";

async function tailSize(kv: Deno.Kv, cid: number): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: keys.rosterTail(cid) })) n++;
  return n;
}

Deno.test("[live] a long roster tail is sealed into chunks in the background; rankings stay exact", async () => {
  const kv = await Deno.openKv(":memory:");
  const contest = await seedContest(kv, { entries: 2000 });
  const cid = contest.competition.id;
  await savePerformances(kv, cid, [
    { playerId: contest.players[0].id, goals: 1 },
    { playerId: contest.players[5].id, minutesPlayed: 90 },
  ]);
  assert.equal(await tailSize(kv, cid), 2000, "every entry starts in the tail");
  const first = (await new LeaderboardCache(kv).standings(cid))!;
  const deadline = Date.now() + 20_000;
  while (await tailSize(kv, cid) >= COMPACT_AT) {
    assert.ok(Date.now() < deadline, "the tail was compacted");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const meta = (await kv.get<RosterMeta>(keys.rosterMeta(cid))).value!;
  assert.ok(meta.chunks >= 2, `sealed chunks: ${meta.chunks}`);
  await new Promise((resolve) => setTimeout(resolve, 100));

  const reference = await computeStandings(kv, cid);
  for (const standings of [first, (await new LeaderboardCache(kv).standings(cid))!]) {
    const rows = standings.rows(0, standings.total);
    assert.deepEqual(
      rows.map((r) => [r.id, r.teamId, r.teamName, r.points, r.rank]),
      reference.map((r) => [r.entryId, r.teamId, r.teamName, r.points, r.rank]),
    );
  }
  kv.close();
});

Deno.test("[live] entries written without their roster records are found and added", async () => {
  const kv = await Deno.openKv(":memory:");
  const contest = await seedContest(kv, { entries: 40 });
  const cid = contest.competition.id;
  for (const id of contest.entryIds.slice(10, 15)) {
    await kv.delete(keys.rosterTailEntry(cid, id));
  }
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (message: string) => warnings.push(message);
  try {
    const standings = (await new LeaderboardCache(kv).standings(cid))!;
    assert.equal(standings.total, 40);
    assert.deepEqual(
      standings.rows(0, 40).map((r) => r.id).sort((a, b) => a - b),
      contest.entryIds,
    );
    assert.equal(warnings.length, 1);
    assert.equal((await new LeaderboardCache(kv).standings(cid))!.total, 40, "repaired in KV");
    assert.equal(warnings.length, 1, "a repaired roster needs no second repair");
  } finally {
    console.warn = warn;
  }
  kv.close();
});
