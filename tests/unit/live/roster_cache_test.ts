import assert from "node:assert/strict";
import { computeStandings } from "@/lib/db/standings.ts";
import { keys } from "@/lib/store/keys.ts";
import { COMPACT_AT, type RosterMeta } from "@/lib/store/roster.ts";
import { savePerformances } from "@/lib/db/performances.ts";
import { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import { seedContest } from "./seed.ts";
import { makeCompetition, makeEntry, validTeams } from "@/tests/helpers/fixtures.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

async function tailSize(kv: Deno.Kv, cid: number): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: keys.rosterTail(cid) })) n++;
  return n;
}

/** `kv` with its writes counted: commits, sets and deletes. */
function countingWrites(kv: Deno.Kv): { kv: Deno.Kv; writes: () => number } {
  let writes = 0;
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => {
            writes++;
            return commit();
          };
          return op;
        };
      }
      const value = Reflect.get(target, prop);
      if (prop === "set" || prop === "delete" || prop === "enqueue") {
        return (...args: unknown[]) => {
          writes++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: wrapped, writes: () => writes };
}

Deno.test("[live] a leaderboard read never writes, however long the roster tail", async () => {
  const kv = await Deno.openKv(":memory:");
  const contest = await seedContest(kv, { entries: 2000 });
  const cid = contest.competition.id;
  const counted = countingWrites(kv);
  const standings = (await new LeaderboardCache(counted.kv).standings(cid))!;
  assert.equal(standings.total, 2000);
  assert.equal(counted.writes(), 0, "the read wrote to the store");
  assert.equal(await tailSize(kv, cid), 2000, "the tail is left to the writers");
  kv.close();
});

Deno.test("[live] writers seal the tail as their entries pass 256; rankings stay exact", async () => {
  const kv = await Deno.openKv(":memory:");
  const competition = await makeCompetition(kv);
  const cid = competition.id;
  const teams = validTeams(competition);
  for (let i = 0; i < COMPACT_AT + 20; i++) {
    await makeEntry(kv, competition, { playerIds: teams[i % teams.length] });
  }
  await savePerformances(kv, cid, [{ playerId: competition.players[0].id, goals: 1 }]);
  await waitFor("the tail was compacted", async () => await tailSize(kv, cid) < COMPACT_AT, {
    timeoutMs: 20_000,
  });
  const meta = (await kv.get<RosterMeta>(keys.rosterMeta(cid))).value!;
  assert.ok(meta.chunks >= 1, `sealed chunks: ${meta.chunks}`);
  const reference = await computeStandings(kv, cid);
  const standings = (await new LeaderboardCache(kv).standings(cid))!;
  assert.deepEqual(
    standings.rows(0, standings.total).map((r) => [r.id, r.teamId, r.teamName, r.points, r.rank]),
    reference.map((r) => [r.entryId, r.teamId, r.teamName, r.points, r.rank]),
  );
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
