/**
 * Work the app does on one thread, timed here instead of in unit tests (bench/README.md):
 * - seeding an empty store with the demo data (what `npm start` does on a fresh machine), on an
 *   in-memory KV, 5 runs;
 * - `missingForTeam` (can any valid team still be built?) on 70 players of 10 clubs under a cap
 *   that lets none through and one that lets one through, 20 runs;
 * - what a push drainer run reads of the kept push retries when 10,000 are kept and none is due
 *   (the due ones and the time of the next, through their due-time order), beside one listing of
 *   all of them (what each run read twice before the order), 7 runs.
 * Prints the medians and exits 1 when a median passes its target (1 s each).
 *
 * Run: `deno task bench domain`.
 */
import {
  listDuePushRetries,
  listPushRetries,
  nextPushRetryAt,
  type PushRetry,
  schedulePushRetry,
} from "@/lib/db/push_retries.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";
import { DEFAULT_RULES, missingForTeam, type RulePlayer } from "@/lib/domain/team_rules.ts";
import type { Position } from "@/lib/domain/types.ts";

const TARGET_MS = 1000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(runs: number, work: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

const seedMs = await timed(5, async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    if (!await seedDemoDataIfEmpty(kv, new Date())) throw new Error("the store was not empty");
  } finally {
    kv.close();
  }
});

const positions: Position[] = ["GK", "DEF", "DEF", "MID", "MID", "FWD", "FWD"];
const many: RulePlayer[] = [];
for (let club = 1; club <= 10; club++) {
  for (const position of positions) {
    many.push({ id: many.length + 1, position, teamId: 100 + club, salary: 9000 });
  }
}
const rulesMs = await timed(20, () => {
  if (missingForTeam(many, { ...DEFAULT_RULES, salaryCap: 40000 }) === null) {
    throw new Error("a 40,000 cap let five 9,000 players through");
  }
  if (missingForTeam(many, { ...DEFAULT_RULES, salaryCap: 45000 }) !== null) {
    throw new Error("a 45,000 cap turned five 9,000 players away");
  }
});

const KEPT = 10_000;
const kv = await Deno.openKv(":memory:");
const now = Date.now();
for (let first = 0; first < KEPT; first += 200) {
  await Promise.all(Array.from({ length: 200 }, (_, i) => {
    const retry: PushRetry = {
      competitionId: 1,
      entryId: first + i,
      kind: "scored",
      eventId: 5,
      message: { title: "Your pick scored", body: "Goal", url: "/leaderboard/1", tag: "scored-5" },
      attempts: 1,
      nextAt: now + 60_000 + first + i,
      expiresAt: now + 3_600_000,
      lastError: "503",
    };
    return schedulePushRetry(kv, retry);
  }));
}
const retryRunMs = await timed(7, async () => {
  if ((await listDuePushRetries(kv, now, 2_000)).length !== 0) throw new Error("none is due");
  if (await nextPushRetryAt(kv) !== now + 60_000) throw new Error("the wrong next time");
});
const listAllMs = await timed(7, async () => {
  if ((await listPushRetries(kv)).length !== KEPT) throw new Error(`${KEPT} are kept`);
});
kv.close();

const figures = {
  seedMedianMs: +seedMs.toFixed(1),
  teamRules70PlayersMedianMs: +rulesMs.toFixed(2),
  pushRetryRunReads10kKeptMs: +retryRunMs.toFixed(2),
  pushRetryListAll10kKeptMs: +listAllMs.toFixed(1),
};
console.log(JSON.stringify(figures));
const over = Object.entries(figures).filter(([, ms]) => ms > TARGET_MS);
if (over.length > 0) {
  console.log(`Over the ${TARGET_MS} ms target: ${over.map(([name]) => name).join(", ")}`);
  Deno.exit(1);
}
