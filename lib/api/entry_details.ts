/**
 * The entry reads of the public API: an entry by its team id, its players with teams,
 * and the entry-details shape with each player's points and breakdown.
 */
import { getCompetition } from "@/lib/db/competitions.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { getPerformancesMap } from "@/lib/db/performances.ts";
import { entryPlayers } from "@/lib/db/players.ts";
import {
  emptyStats,
  pointsBreakdown,
  roundPoints,
  scorePerformance,
} from "@/lib/domain/scoring.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { closedReason } from "@/lib/domain/competition.ts";
import type { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import { actingCaptain, captainLine, captainScoring, roleOf } from "@/lib/domain/captain.ts";
import { getPickClock } from "@/lib/db/pick_clock.ts";
import { maskEmail, maskPaymentId } from "./views.ts";
import { lockedPickIds } from "./pick_privacy.ts";
import { lateSwapOn } from "@/lib/domain/rounds.ts";

/**
 * The entry named by its public team id (`FFT-…`, random), or null. Public reads never take the
 * numeric entry id: ids are sequential, so `/api/entries/1…n` would list every entry.
 */
export function findEntry(kv: Deno.Kv, teamId: string): Promise<Entry | null> {
  return getEntryByTeamId(kv, teamId);
}

/**
 * Who picked whom, once no team can change any more (deadline passed or the contest started):
 * before that, ownership would let one visitor copy the crowd. Null while teams may change.
 * Read from the isolate's `leaderboards` (Services).
 */
export async function ownershipOnceLocked(
  leaderboards: LeaderboardCache,
  competition: Competition,
): Promise<ReadonlyMap<number, number> | null> {
  const open = closedReason({ ...competition, maxEntries: null }) === null;
  if (open) return null;
  // With late swap, teams still change after the deadline: the crowd's picks wait for the end.
  if (lateSwapOn(competition) && competition.status !== "COMPLETED") return null;
  const standings = await leaderboards.standings(competition.id);
  return standings ? standings.ownership() : null;
}

/**
 * GET /api/entries/{id}/details: {entry, competition, players}, every number a number. Each
 * player carries points, the pointsBreakdown and `breakdown` lines (count × value = points)
 * that sum to its points; entry.points is the sum of the players' points (a postponed match's
 * players score 0; the acting captain's count the multiplier). Picks that have not locked are
 * left out (`hiddenPicks` counts them: see pick_privacy.ts). Null when missing.
 */
export async function entryDetails(kv: Deno.Kv, leaderboards: LeaderboardCache, teamId: string) {
  const entry = await findEntry(kv, teamId);
  if (!entry) return null;
  const [competition, players, performances] = await Promise.all([
    getCompetition(kv, entry.competitionId),
    entryPlayers(kv, entry),
    getPerformancesMap(kv, entry.competitionId),
  ]);
  if (!competition) return null;
  const shown = await lockedPickIds(kv, competition, players);
  const [ownership, clock] = await Promise.all([
    ownershipOnceLocked(leaderboards, competition),
    getPickClock(kv, competition),
  ]);
  const captains = captainScoring(competition, performances, clock);
  const multiplied = captains
    ? actingCaptain(entry.captainId ?? 0, entry.viceCaptainId ?? 0, captains)
    : 0;
  const scored = players.filter((p) => shown.has(p.id)).map((player) => {
    // A postponed match scores 0, whatever was recorded before it was called off.
    const postponed = clock.phaseOf(player.id) === "POSTPONED";
    const stats = (!postponed && performances.get(player.id)) || emptyStats();
    const { totalPoints, lines } = scorePerformance(player.position, stats);
    const extra = captains && player.id === multiplied
      ? captainLine(totalPoints, captains.multiplier, player.id !== entry.captainId)
      : null;
    return {
      ...player,
      points: extra ? roundPoints(totalPoints + extra.points) : totalPoints,
      pointsBreakdown: pointsBreakdown(player.position, stats),
      breakdown: extra ? [...lines, extra] : lines,
      /** "C" for the captain, "V" for the vice-captain, else null. */
      captain: roleOf(entry, player.id),
      /** The share of entries that picked the player, once teams are locked; else null. */
      pickedBy: ownership ? ownership.get(player.id) ?? 0 : null,
    };
  });
  const points = roundPoints(scored.reduce((sum, p) => sum + p.points, 0));
  return {
    entry: {
      id: entry.id,
      teamId: entry.teamId,
      teamName: entry.teamName,
      email: maskEmail(entry.email),
      competitionId: entry.competitionId,
      points,
      totalPoints: points,
      rank: entry.rank,
      prize: entry.prize,
      prizeType: entry.prizeType,
      customPrizeDescription: entry.customPrizeDescription,
      createdAt: entry.createdAt,
      stripePaymentId: maskPaymentId(entry.stripePaymentId),
      captainMultiplier: captains?.multiplier ?? null,
    },
    competition,
    players: scored,
    /** How many picks are hidden until they lock. */
    hiddenPicks: players.length - scored.length,
  };
}
