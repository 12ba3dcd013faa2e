/**
 * The one standings engine: team points from player points, standard competition ranking with
 * ties ordered by createdAt then id, and the prize split. `computeStandings` (lib/db/standings.ts)
 * and the leaderboard cache (lib/live/leaderboard_cache.ts) both rank through `rankStandings`.
 */
import { actingCaptain, type CaptainScoring, multiplyPoints } from "./captain.ts";
import { awardPlaces, type Awards, type PrizePlace } from "./prizes.ts";
import { rankIndexes } from "./ranking.ts";
import { roundPoints } from "./scoring.ts";
import type { PrizeType } from "./types.ts";

/** Entries as columns: entry i picked `picks[pickStart[i] .. pickStart[i + 1])`. */
export interface EntryColumnsView {
  length: number;
  ids: ArrayLike<number>;
  createdMs: ArrayLike<number>;
  picks: ArrayLike<number>;
  pickStart: ArrayLike<number>;
  /** Entry i's captain and vice-captain player ids (0: none); absent: no entry has one. */
  captains?: ArrayLike<number>;
  vices?: ArrayLike<number>;
}

/** How a competition's prizes are awarded. */
export interface AwardRules {
  prizeType: PrizeType;
  /** The competition's own description, for NON_CASH places without one. */
  customPrizeDescription: string | null;
  prizes: PrizePlace[];
}

/** A ranked competition: positions in ranked order, and the awards when prizes were asked for. */
export interface RankedStandings {
  /** Entry points (rounded to 0.1), by entry index. */
  points: Float64Array;
  /** `order[pos]`: the entry index at ranked position pos. */
  order: Uint32Array;
  /** Rank of each position (1, 2, 2, 4). */
  ranks: Uint32Array;
  /** CASH: cents per position; NON_CASH: all 0 with the descriptions by rank. Null: no awards. */
  awards: Awards | null;
}

/** Player ids up to this are looked up in a typed array; larger ones in the map. */
const MAX_DENSE_PLAYER_ID = 1 << 20;

/**
 * Each entry's points: the sum of its picks' points, rounded to 0.1 (unknown players 0); with
 * `captain`, the acting captain's points (`actingCaptain`) count `multiplier` times.
 */
export function teamPoints(
  cols: EntryColumnsView,
  perPlayer: Map<number, number>,
  captain: CaptainScoring | null = null,
): Float64Array {
  const points = new Float64Array(cols.length);
  const maxId = Math.max(0, ...perPlayer.keys());
  const dense = new Float64Array(maxId <= MAX_DENSE_PLAYER_ID ? maxId + 1 : 0);
  for (const [id, value] of perPlayer) if (id >= 0) dense[id] = value;
  const { picks, pickStart, captains, vices } = cols;
  const pointsOf = (id: number) =>
    id >= 0 && id < dense.length ? dense[id] : perPlayer.get(id) ?? 0;
  for (let i = 0; i < points.length; i++) {
    let sum = 0;
    for (let p = pickStart[i]; p < pickStart[i + 1]; p++) sum += pointsOf(picks[p]);
    const multiplied = captain && captains
      ? actingCaptain(captains[i], vices?.[i] ?? 0, captain)
      : 0;
    if (multiplied) {
      const base = roundPoints(pointsOf(multiplied));
      sum += multiplyPoints(base, captain!.multiplier) - base;
    }
    points[i] = roundPoints(sum);
  }
  return points;
}

/** Entry indexes in tie-break order: createdAt, then id. */
export function tieOrder(cols: EntryColumnsView): Uint32Array {
  const order = new Uint32Array(cols.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const { createdMs, ids } = cols;
  let sorted = true;
  for (let i = 1; i < order.length && sorted; i++) {
    sorted = createdMs[i - 1] < createdMs[i] ||
      (createdMs[i - 1] === createdMs[i] && ids[i - 1] < ids[i]);
  }
  if (!sorted) order.sort((a, b) => createdMs[a] - createdMs[b] || ids[a] - ids[b]);
  return order;
}

/**
 * Ranks the entries by points (ties: createdAt, then id) and, with `rules`, splits the prizes:
 * CASH places in cents (ties share the places they cover), NON_CASH the description of the best
 * place a tied group covers. `ties` may be passed when already known (`tieOrder(cols)`);
 * `captain` scores the entries' captains (competitions with the option on).
 */
export function rankStandings(
  cols: EntryColumnsView,
  perPlayer: Map<number, number>,
  rules: AwardRules | null,
  ties: Uint32Array = tieOrder(cols),
  captain: CaptainScoring | null = null,
): RankedStandings {
  const points = teamPoints(cols, perPlayer, captain);
  const { order, ranks } = rankIndexes(points, ties);
  let awards: Awards | null = null;
  if (rules) {
    const cash = rules.prizeType !== "NON_CASH";
    const placed = awardPlaces(ranks, rules.prizes, cash ? null : rules.customPrizeDescription);
    awards = cash
      ? { cents: placed.cents, descriptionByRank: new Map() }
      : { cents: new Float64Array(ranks.length), descriptionByRank: placed.descriptionByRank };
  }
  return { points, order, ranks, awards };
}
