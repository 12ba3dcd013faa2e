/** Leaderboard standings computed from performances, and the award of prizes on completion. */
import { splitPrizes } from "../domain/prizes.ts";
import { rankByPoints } from "../domain/ranking.ts";
import { roundPoints } from "../domain/scoring.ts";
import type { Competition, Entry, PrizeStructure, PrizeType } from "../domain/types.ts";
import { NotFoundError } from "../http/errors.ts";
import { listEntriesByCompetition } from "./entries.ts";
import { keys } from "./keys.ts";
import { bumpLive } from "./live.ts";
import { getPerformancesMap } from "./performances.ts";
import { chunk, getManyEntries, listValues, retryAtomic } from "./util.ts";

export interface StandingRow {
  entryId: number;
  teamId: string;
  teamName: string;
  points: number;
  rank: number;
  /** Money won (CASH); always 0 for NON_CASH competitions. */
  prize: number;
  prizeType: PrizeType;
  /** NON_CASH: the prize description of the place won; otherwise null. */
  customPrizeDescription: string | null;
  createdAt: string;
}

/** Checks of at most 100 per atomic: entries are rewritten in chunks below that. */
const AWARD_CHUNK = 90;

/** The NON_CASH description of the best prize place a tied group of `size` at `rank` covers. */
function nonCashDescription(
  rank: number,
  size: number,
  prizes: PrizeStructure[],
  competition: Competition,
): string | null {
  const won = prizes.find((p) => p.position >= rank && p.position < rank + size);
  return won ? won.customPrizeDescription ?? competition.customPrizeDescription : null;
}

/**
 * The leaderboard of a competition: each entry's points are the sum of its players' performance
 * points; standard competition ranking, ties ordered by createdAt then id; prizes split per
 * ARCHITECTURE §5 (CASH), or the prize description for NON_CASH.
 */
export async function computeStandings(kv: Deno.Kv, cid: number): Promise<StandingRow[]> {
  const competition = (await kv.get<Competition>(keys.competition(cid))).value;
  if (!competition) throw new NotFoundError("Competition not found");
  const [entries, performances, prizes] = await Promise.all([
    listEntriesByCompetition(kv, cid),
    getPerformancesMap(kv, cid),
    listValues<PrizeStructure>(kv, keys.prizes(cid)),
  ]);
  const rows = entries.map((e) => ({
    entryId: e.id,
    teamId: e.teamId,
    teamName: e.teamName,
    createdAt: e.createdAt,
    points: roundPoints(
      e.playerIds.reduce((sum, id) => sum + (performances.get(id)?.totalPoints ?? 0), 0),
    ),
  }));
  const ranked = rankByPoints(
    rows,
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.entryId - b.entryId,
  );
  const cash = competition.prizeType !== "NON_CASH";
  const amounts = cash ? splitPrizes(ranked, prizes) : ranked.map(() => 0);
  const tieSize = new Map<number, number>();
  for (const row of ranked) tieSize.set(row.rank, (tieSize.get(row.rank) ?? 0) + 1);
  return ranked.map((row, i) => ({
    ...row,
    prize: amounts[i],
    prizeType: competition.prizeType,
    customPrizeDescription: cash
      ? null
      : nonCashDescription(row.rank, tieSize.get(row.rank)!, prizes, competition),
  }));
}

/**
 * Writes the current standings onto the entries (points, rank, prize, prizeType, description),
 * in atomics of at most 90 entries, each checked against the entries just read.
 */
export async function awardPrizes(kv: Deno.Kv, cid: number): Promise<StandingRow[]> {
  const standings = await computeStandings(kv, cid);
  for (const rows of chunk(standings, AWARD_CHUNK)) {
    await retryAtomic("award the prizes", async () => {
      const current = await getManyEntries<Entry>(kv, rows.map((r) => keys.entry(r.entryId)));
      const op = kv.atomic();
      rows.forEach((row, i) => {
        const entry = current[i];
        if (!entry.value) return;
        op.check(entry).set(entry.key, {
          ...entry.value,
          points: row.points,
          rank: row.rank,
          prize: row.prize,
          prizeType: row.prizeType,
          customPrizeDescription: row.customPrizeDescription,
        });
      });
      const res = await bumpLive(op, cid).commit();
      return res.ok ? true : undefined;
    });
  }
  return standings;
}
