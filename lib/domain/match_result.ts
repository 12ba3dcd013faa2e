/** The result and status a match gets when it is saved. */
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

/** Leagues whose matches pit clubs of different domestic leagues against each other. */
const CROSS_LEAGUE_COMPETITIONS: readonly string[] = ["CHAMPIONS_LEAGUE", "EUROPA_LEAGUE"];

/** One reason a match cannot be saved as given: the field and a message for the admin. */
export interface MatchProblem {
  field: "homeTeamId" | "awayTeamId" | "homeScore";
  message: string;
}

/**
 * Why a match cannot be saved: a club outside the match's domestic league (cup competitions
 * take clubs of any league), or a score for a match that has not kicked off yet.
 * @example matchProblems({ league: "LA_LIGA", kickoffTime, homeScore: null, awayScore: null },
 *   { name: "Riverside Rovers", league: "PREMIER_LEAGUE" }, away, new Date())
 */
export function matchProblems(
  match: {
    league: string;
    kickoffTime: string;
    homeScore?: number | null;
    awayScore?: number | null;
  },
  home: { name: string; league: string },
  away: { name: string; league: string },
  now: Date,
): MatchProblem[] {
  const problems: MatchProblem[] = [];
  if (!CROSS_LEAGUE_COMPETITIONS.includes(match.league)) {
    for (const [field, team] of [["homeTeamId", home], ["awayTeamId", away]] as const) {
      if (team.league === match.league) continue;
      problems.push({
        field,
        message: `${team.name} plays in ${leagueWords(team.league)}, not ${
          leagueWords(match.league)
        }.`,
      });
    }
  }
  const scored = match.homeScore != null || match.awayScore != null;
  if (scored && new Date(match.kickoffTime).getTime() > now.getTime()) {
    problems.push({
      field: "homeScore",
      message: "A result can only be saved once the match has kicked off.",
    });
  }
  return problems;
}

function leagueWords(league: string): string {
  return league.toLowerCase().split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}
