/**
 * Prize structures and the split of prizes between ranked
 * entries. All arithmetic is in whole cents, so no money is created or lost.
 */
import { toCents } from "./format.ts";

export interface PrizeRow {
  position: number;
  prize: number;
}

/** A prize place, with the description NON_CASH competitions show for it. */
export interface PrizePlace extends PrizeRow {
  customPrizeDescription?: string | null;
}

/** What a ranked group wins: cents per position, and per rank the NON_CASH description. */
export interface Awards {
  /** Cents won by each ranked position (same order as the ranks); 0 outside prize places. */
  cents: Float64Array;
  /** The description of the best prize place each tied group covers (rank → text). */
  descriptionByRank: Map<number, string>;
}

/**
 * The one prize split, over ranks in ranked order (ascending, as
 * `rankIndexes` gives). Positions sharing rank r (k of them) cover places r..r+k-1 and split the
 * sum of those places' prizes equally: each gets that sum floored to the cent, and the remaining
 * cents go one each to the earliest positions of the tie, so the group's awards sum exactly to
 * the places' prizes. A group that covers a place also gets the best such place's description
 * (or `fallbackDescription`). Stops after the last prize place: O(places + their groups).
 */
export function awardPlaces(
  ranks: ArrayLike<number>,
  prizes: PrizePlace[],
  fallbackDescription: string | null = null,
): Awards {
  const cents = new Float64Array(ranks.length);
  const descriptionByRank = new Map<number, string>();
  const byPlace = new Map<number, { cents: number; description: string | null }>();
  for (const p of [...prizes].sort((a, b) => a.position - b.position)) {
    const place = byPlace.get(p.position);
    if (place) place.cents += toCents(p.prize);
    else {
      const description = p.customPrizeDescription ?? fallbackDescription;
      byPlace.set(p.position, { cents: toCents(p.prize), description });
    }
  }
  const lastPlace = Math.max(0, ...byPlace.keys());
  let start = 0;
  while (start < ranks.length && ranks[start] <= lastPlace) {
    const rank = ranks[start];
    let end = start + 1;
    while (end < ranks.length && ranks[end] === rank) end++;
    const size = end - start;
    let pot = 0;
    let description: string | null = null;
    let covers = false;
    for (let place = rank; place < rank + size; place++) {
      const won = byPlace.get(place);
      if (!won) continue;
      pot += won.cents;
      if (!covers) description = won.description;
      covers = true;
    }
    const share = Math.floor(pot / size);
    const extra = pot - share * size;
    for (let pos = start; pos < end; pos++) cents[pos] = share + (pos - start < extra ? 1 : 0);
    if (description !== null) descriptionByRank.set(rank, description);
    start = end;
  }
  return { cents, descriptionByRank };
}

/**
 * Prize of each ranked row (same order), by `awardPlaces`; rows may come in any order (a tie's
 * remaining cents go to its earliest rows). No prize rows → all 0.
 * @example splitPrizes([{rank: 1}, {rank: 2}, {rank: 2}, {rank: 2}], [{position: 1, prize: 50}, {position: 2, prize: 30}, {position: 3, prize: 20}]) // [50, 16.67, 16.67, 16.66]
 */
export function splitPrizes(ranked: { rank: number }[], prizes: PrizeRow[]): number[] {
  const order = ranked.map((_, i) => i).sort((a, b) => ranked[a].rank - ranked[b].rank || a - b);
  const { cents } = awardPlaces(order.map((i) => ranked[i].rank), prizes);
  const awards = ranked.map(() => 0);
  order.forEach((index, pos) => awards[index] = cents[pos] / 100);
  return awards;
}

/** Relative weights of Auto-Distribute: 100; 70/30; 50/30/20; then halving per position. */
function weights(count: number): number[] {
  if (count === 1) return [1];
  if (count === 2) return [7, 3];
  if (count === 3) return [5, 3, 2];
  return Array.from({ length: count }, (_, i) => 2 ** (count - 1 - i));
}

/**
 * Auto-Distribute: `count` rows (positions 1..count) sharing the pool by the weights.
 * Each row but the last is floored to the cent; the last row takes the rest, so the rows sum to
 * the pool exactly and none is negative. count < 1 → [].
 */
export function autoDistribute(pool: number, count: number): PrizeRow[] {
  if (!(count >= 1)) return [];
  const w = weights(Math.floor(count));
  const total = w.reduce((a, b) => a + b, 0);
  const poolCents = Math.max(0, toCents(pool));
  const cents = w.map((x) => Math.floor((poolCents * x) / total));
  cents[cents.length - 1] = poolCents - cents.slice(0, -1).reduce((a, b) => a + b, 0);
  return cents.map((c, i) => ({ position: i + 1, prize: c / 100 }));
}

/** Sum of the prizes, to the cent. */
export function prizeTotal(rows: PrizeRow[]): number {
  return rows.reduce((sum, r) => sum + toCents(Number(r.prize) || 0), 0) / 100;
}

/** Whether the rows add up to the pool: a difference below 0.01 (cents lost to rounding). */
export function prizeTotalMatches(rows: PrizeRow[], pool: number): boolean {
  return toCents(prizeTotal(rows)) === toCents(pool);
}

/**
 * Fix Total: puts the remainder (pool − total) on the last row when it is at least 0.01 in
 * absolute value; rows already matching come back unchanged (a copy). null when it cannot
 * adjust: no rows, or the last row would become 0 or less ('Cannot Adjust Prizes').
 */
export function fixTotal(rows: PrizeRow[], pool: number): PrizeRow[] | null {
  if (rows.length === 0) return null;
  const copy = rows.map((r) => ({ ...r }));
  const remainder = toCents(pool) - toCents(prizeTotal(rows));
  if (remainder === 0) return copy;
  const last = copy[copy.length - 1];
  const lastCents = toCents(Number(last.prize) || 0) + remainder;
  if (lastCents <= 0) return null;
  last.prize = lastCents / 100;
  return copy;
}

/** Add Position: the next position number and the unallocated rest of the pool (at least 0). */
export function nextPrizeRow(rows: PrizeRow[], pool: number): PrizeRow {
  const position = rows.reduce((max, r) => Math.max(max, r.position), 0) + 1;
  const rest = toCents(pool) - toCents(prizeTotal(rows));
  return { position, prize: Math.max(0, rest) / 100 };
}

/**
 * The rows after "Add Position": the new position takes what the pool has left, or, when
 * nothing is left, half of the last paid position's prize, so no row is ever $0 (a structure
 * that saving would refuse) and the total still matches the pool.
 * @example addPrizeRow([{ position: 1, prize: 60 }, { position: 2, prize: 40 }], 100)
 * // [{ position: 1, prize: 60 }, { position: 2, prize: 20 }, { position: 3, prize: 20 }]
 */
export function addPrizeRow(rows: PrizeRow[], pool: number): PrizeRow[] {
  const next = nextPrizeRow(rows, pool);
  if (next.prize > 0) return [...rows, next];
  const donor = [...rows].reverse().find((r) => toCents(r.prize) >= 2);
  if (!donor) return [...rows, { ...next, prize: 0.01 }];
  const cents = toCents(donor.prize);
  const given = Math.floor(cents / 2);
  return [
    ...rows.map((r) => r === donor ? { ...r, prize: (cents - given) / 100 } : r),
    { ...next, prize: given / 100 },
  ];
}

/**
 * The rows a new prize structure starts from: three places sharing the whole pool (50/30/20), a
 * default that adds up, where a single half-pool 1st place opened the editor in red.
 */
export function defaultPrizeRows(pool: number): PrizeRow[] {
  return autoDistribute(pool, 3);
}
