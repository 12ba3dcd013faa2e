/**
 * Friends' leagues: the limits and the shapes the API, the pages and the islands share, and the
 * ranking of a league's members among themselves. No money moves in a league.
 */
import type { LeaderboardRow } from "@/lib/domain/live.ts";

/** Most entries in one league. */
export const MAX_LEAGUE_MEMBERS = 50;
/** Most leagues one entry may be in. */
export const MAX_LEAGUES_PER_ENTRY = 10;
/** Leagues one person (the entry's e-mail) may create per hour. */
export const LEAGUES_PER_HOUR = 5;
/** Join codes e-mailed to one person per hour. */
export const JOIN_CODES_PER_HOUR = 5;
/**
 * Join codes one requester (a client address) may ask per hour, whoever they go to: team IDs
 * are public, so without it one stranger could mail every entrant of a contest.
 */
export const JOIN_CODE_REQUESTS_PER_HOUR = 10;
/** How long an e-mailed join code works, and how many wrong tries it takes. */
export const JOIN_CODE_MINUTES = 15;
export const JOIN_CODE_TRIES = 5;

/** A league as the API shows it. */
export interface LeagueView {
  id: string;
  name: string;
  competitionId: number;
  memberCount: number;
  maxMembers: number;
  createdAt: string;
}

/** A member's row: `rank` within the league, `contestRank` in the whole competition. */
export interface LeagueRow extends LeaderboardRow {
  contestRank: number;
}

/**
 * Ranks contest rows (already in contest order) within the league: members level on points
 * share a rank, as in the contest.
 * @example leagueRanks([{ rank: 3, … }, { rank: 3, … }, { rank: 9, … }]) // ranks 1, 1, 3
 */
export function leagueRanks(rows: LeaderboardRow[]): LeagueRow[] {
  return rows.map((row, i) => {
    const first = rows.findIndex((other) => other.rank === row.rank);
    return { ...row, contestRank: row.rank, rank: first < 0 ? i + 1 : first + 1 };
  });
}
