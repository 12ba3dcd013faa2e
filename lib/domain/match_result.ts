/** The result and status a match gets when it is saved (SPEC §4 "Match result on save"). */
import type { MatchResult, MatchStatus } from "./types.ts";

export interface MatchOutcome {
  result: MatchResult;
  status: MatchStatus;
}

/**
 * Both scores set: HOME_WIN / AWAY_WIN / DRAW and COMPLETED; either missing: NOT_PLAYED and UPCOMING.
 * @example matchOutcome(2, 1) // { result: "HOME_WIN", status: "COMPLETED" }
 */
export function matchOutcome(
  homeScore: number | null | undefined,
  awayScore: number | null | undefined,
): MatchOutcome {
  if (homeScore == null || awayScore == null) return { result: "NOT_PLAYED", status: "UPCOMING" };
  if (homeScore > awayScore) return { result: "HOME_WIN", status: "COMPLETED" };
  if (awayScore > homeScore) return { result: "AWAY_WIN", status: "COMPLETED" };
  return { result: "DRAW", status: "COMPLETED" };
}
