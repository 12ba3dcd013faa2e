/** Leaderboard standings computed from performances, and the award of prizes on completion. */
import { captainScoring } from "@/lib/domain/captain.ts";
import { scoredPoints } from "@/lib/domain/match_clock.ts";
import { rankStandings } from "@/lib/domain/standings.ts";
import type { Competition, Entry, PrizeStructure, PrizeType } from "@/lib/domain/types.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { listEntriesByCompetition } from "./entries.ts";
import { keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { recordPayouts } from "./payout_records.ts";
import { freezeContestPool } from "./pool_freeze.ts";
import { getPerformancesMap } from "./performances.ts";
import { getPickClock } from "./pick_clock.ts";
import { chunk, getManyEntries, listValues, retryAtomic } from "@/lib/store/util.ts";

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

/**
 * The leaderboard of a competition from a full read of its entries, ranked by the one engine
 * (`rankStandings`): each entry's points are the sum of its players' performance points (0 for
 * a postponed match; the acting captain's multiplied when the competition has captains);
 * standard competition ranking, ties ordered by createdAt then id; prizes split among tied ranks
 * (CASH), or the prize description for NON_CASH.
 */
export async function computeStandings(kv: Deno.Kv, cid: number): Promise<StandingRow[]> {
  const competition = (await kv.get<Competition>(keys.competition(cid))).value;
  if (!competition) throw new NotFoundError("Competition not found");
  const [all, performances, prizes, clock] = await Promise.all([
    listEntriesByCompetition(kv, cid),
    getPerformancesMap(kv, cid),
    listValues<PrizeStructure>(kv, keys.prizes(cid)),
    getPickClock(kv, competition),
  ]);
  // An entry refunded on its own no longer plays (lib/db/entry_refund_decisions.ts).
  const entries = all.filter((e) => !e.refundedAt);
  const pickStart = [0];
  for (const e of entries) pickStart.push(pickStart[pickStart.length - 1] + e.playerIds.length);
  const cols = {
    length: entries.length,
    ids: entries.map((e) => e.id),
    createdMs: entries.map((e) => Date.parse(e.createdAt)),
    picks: entries.flatMap((e) => e.playerIds),
    pickStart,
    captains: entries.map((e) => e.captainId ?? 0),
    vices: entries.map((e) => e.viceCaptainId ?? 0),
  };
  const perPlayer = scoredPoints(performances, clock);
  const captain = captainScoring(competition, performances, clock);
  const ranked = rankStandings(cols, perPlayer, { ...competition, prizes }, undefined, captain);
  const { cents, descriptionByRank } = ranked.awards!;
  return Array.from(ranked.order, (index, pos) => {
    const e = entries[index];
    const rank = ranked.ranks[pos];
    return {
      entryId: e.id,
      teamId: e.teamId,
      teamName: e.teamName,
      createdAt: e.createdAt,
      points: ranked.points[index],
      rank,
      prize: cents[pos] / 100,
      prizeType: competition.prizeType,
      customPrizeDescription: descriptionByRank.get(rank) ?? null,
    };
  });
}

/**
 * Writes the current standings onto the entries (points, rank, prize, prizeType, description),
 * in atomics of at most 90 entries, each checked against the entries just read.
 */
export async function awardPrizes(kv: Deno.Kv, cid: number): Promise<StandingRow[]> {
  // A template contest completed before the freeze job ran pays from a table frozen now.
  const before = (await kv.get<Competition>(keys.competition(cid))).value;
  if (before?.status === "COMPLETED" && before.format && !before.format.frozenAt) {
    await freezeContestPool(kv, cid, new Date(), { force: true });
  }
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
  const [competition, entries] = await Promise.all([
    kv.get<Competition>(keys.competition(cid)),
    listEntriesByCompetition(kv, cid),
  ]);
  // Winners of a completed competition are owed their prizes (payouts.ts tells and pays them).
  if (competition.value?.status === "COMPLETED") {
    await recordPayouts(kv, competition.value, entries);
    await kv.set(keys.awardsRecorded(cid), new Date().toISOString());
  }
  return standings;
}

/**
 * Finishes the awards of every COMPLETED competition whose awarding was cut short (its process
 * died between the status change and the last payout written); the periodic sweep calls this.
 * Returns how many were finished.
 */
export async function resumeAwards(kv: Deno.Kv): Promise<number> {
  let resumed = 0;
  for (const c of await listValues<Competition>(kv, keys.competitions())) {
    if (c.status !== "COMPLETED") continue;
    if ((await kv.get(keys.awardsRecorded(c.id))).value !== null) continue;
    await awardPrizes(kv, c.id);
    resumed++;
  }
  return resumed;
}
