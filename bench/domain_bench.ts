/**
 * Work the app does on one thread, timed here instead of in unit tests (README "Figures"):
 * - seeding an empty store with the demo data (what `npm start` does on a fresh machine), on an
 *   in-memory KV, 5 runs;
 * - `missingForTeam` (can any valid team still be built?) on 70 players of 10 clubs under a cap
 *   that lets none through and one that lets one through, 20 runs.
 * Prints the medians and exits 1 when a median passes its target (1 s each).
 *
 * Run: `deno task bench domain`.
 */
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

const figures = {
  seedMedianMs: +seedMs.toFixed(1),
  teamRules70PlayersMedianMs: +rulesMs.toFixed(2),
};
console.log(JSON.stringify(figures));
const over = Object.entries(figures).filter(([, ms]) => ms > TARGET_MS);
if (over.length > 0) {
  console.log(`Over the ${TARGET_MS} ms target: ${over.map(([name]) => name).join(", ")}`);
  Deno.exit(1);
}
