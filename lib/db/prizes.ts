/** Prize structures: `["prizes", cid, position]`, replaced as a whole. */
import type { Competition, PrizeStructure } from "@/lib/domain/types.ts";
import { InvalidInputError, type Issue, NotFoundError } from "@/lib/domain/errors.ts";
import { reserveIds } from "@/lib/store/ids.ts";
import { ATOMIC_CHUNK, keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { awardPrizes } from "./standings.ts";
import { listValues, retryAtomic } from "@/lib/store/util.ts";

export interface PrizeRow {
  position: number;
  prize: number;
}

/** The prize-structure rules, as issues with paths. */
function prizeIssues(rows: PrizeRow[]): Issue[] {
  if (rows.length === 0) {
    return [{ path: [], message: "At least one prize position is required" }];
  }
  const issues: Issue[] = [];
  if (rows.length > ATOMIC_CHUNK / 2) {
    issues.push({ path: [], message: `At most ${ATOMIC_CHUNK / 2} prize positions are allowed` });
  }
  const seen = new Set<number>();
  rows.forEach((row, i) => {
    if (!Number.isInteger(row.position) || row.position < 1) {
      issues.push({ path: [i, "position"], message: "Position must be a positive integer" });
    }
    if (!Number.isFinite(row.prize) || row.prize <= 0) {
      issues.push({ path: [i, "prize"], message: "Prize amount must be positive" });
    }
    if (seen.has(row.position)) {
      issues.push({ path: [i, "position"], message: "Prize positions must be unique" });
    }
    seen.add(row.position);
  });
  return issues;
}

/**
 * Replaces a competition's whole prize structure in one atomic; prizeType and description are
 * copied from the competition. A COMPLETED competition gets its prizes awarded again.
 */
export async function setPrizeStructure(
  kv: Deno.Kv,
  cid: number,
  rows: PrizeRow[],
): Promise<PrizeStructure[]> {
  const issues = prizeIssues(rows);
  if (issues.length > 0) throw new InvalidInputError(issues[0].message, issues);
  const sorted = [...rows].sort((a, b) => a.position - b.position);
  const saved = await retryAtomic("save the prize structure", async () => {
    const entry = await kv.get<Competition>(keys.competition(cid));
    const competition = entry.value;
    if (!competition) throw new NotFoundError("Competition not found");
    const old = await listValues<PrizeStructure>(kv, keys.prizes(cid));
    const reservation = await reserveIds(kv, "prizes", sorted.length);
    const prizes = sorted.map((row, i): PrizeStructure => ({
      id: reservation.ids[i],
      competitionId: cid,
      position: row.position,
      prize: Math.round(row.prize * 100) / 100,
      prizeType: competition.prizeType,
      customPrizeDescription: competition.customPrizeDescription,
    }));
    const op = reservation.claim(kv.atomic()).check(entry);
    const kept = new Set(prizes.map((p) => p.position));
    for (const p of old) if (!kept.has(p.position)) op.delete(keys.prize(cid, p.position));
    for (const p of prizes) op.set(keys.prize(cid, p.position), p);
    const res = await bumpLive(op, cid).commit();
    return res.ok ? { prizes, completed: competition.status === "COMPLETED" } : undefined;
  });
  if (saved.completed) await awardPrizes(kv, cid);
  return saved.prizes;
}

/** A competition's prize structure, by position. */
export function listPrizes(kv: Deno.Kv, cid: number): Promise<PrizeStructure[]> {
  return listValues<PrizeStructure>(kv, keys.prizes(cid));
}
