/** The match form's values, defaults, payload (with the computed result) and validation. */
import { matchInputSchema } from "@/lib/domain/schemas/catalog.ts";
import { matchOutcome } from "@/lib/domain/match_result.ts";
import type { Match, MatchResult, MatchStatus } from "@/lib/domain/types.ts";
import { daysAheadParts, fromLocalParts, toLocalParts } from "@/lib/client/admin/datetime.ts";
import { type FieldErrors, issuesToErrors } from "@/lib/client/form_errors.ts";

export interface MatchFormValues {
  homeTeamId: string;
  awayTeamId: string;
  league: string;
  stadium: string;
  kickoffDate: string;
  kickoffTime: string;
  homeScore: string;
  awayScore: string;
  /** The match is called off: its players score 0; it takes no scores. */
  postponed: boolean;
}

/** A new match: Premier League, kickoff 7 days ahead, no scores. */
export function defaultMatchValues(now: Date = new Date()): MatchFormValues {
  const kickoff = daysAheadParts(7, now);
  return {
    homeTeamId: "",
    awayTeamId: "",
    league: "PREMIER_LEAGUE",
    stadium: "",
    kickoffDate: kickoff.date,
    kickoffTime: kickoff.time,
    homeScore: "",
    awayScore: "",
    postponed: false,
  };
}

/** The form values of a saved match (kickoff in the admin's time zone). */
export function matchToValues(m: Match): MatchFormValues {
  const kickoff = toLocalParts(m.kickoffTime);
  return {
    homeTeamId: String(m.homeTeamId),
    awayTeamId: String(m.awayTeamId),
    league: m.league,
    stadium: m.stadium,
    kickoffDate: kickoff.date,
    kickoffTime: kickoff.time,
    homeScore: m.homeScore == null ? "" : String(m.homeScore),
    awayScore: m.awayScore == null ? "" : String(m.awayScore),
    postponed: m.status === "POSTPONED",
  };
}

const scoreOf = (s: string): number | null => (s.trim() === "" ? null : Number(s));

/** Result and status the scores give: both set → a result and COMPLETED; postponed: POSTPONED. */
export function outcomeOf(v: MatchFormValues): { result: MatchResult; status: MatchStatus } {
  if (v.postponed) return { result: "NOT_PLAYED", status: "POSTPONED" };
  const home = scoreOf(v.homeScore);
  const away = scoreOf(v.awayScore);
  const valid = (n: number | null) => n !== null && Number.isInteger(n) && n >= 0;
  return valid(home) && valid(away) ? matchOutcome(home, away) : matchOutcome(null, null);
}

/** The API body: ids as numbers, kickoff as a UTC ISO date-time, scores, result and status. */
export function matchPayload(v: MatchFormValues): Record<string, unknown> {
  const { result, status } = outcomeOf(v);
  return {
    homeTeamId: v.homeTeamId === "" ? null : Number(v.homeTeamId),
    awayTeamId: v.awayTeamId === "" ? null : Number(v.awayTeamId),
    league: v.league,
    kickoffTime: fromLocalParts({ date: v.kickoffDate, time: v.kickoffTime }),
    stadium: v.stadium,
    homeScore: scoreOf(v.homeScore),
    awayScore: scoreOf(v.awayScore),
    result,
    status,
  };
}

/** Field errors by payload field (the kickoff error is under "kickoffTime"), or null. */
export function validateMatch(v: MatchFormValues): FieldErrors | null {
  const parsed = matchInputSchema.safeParse(matchPayload(v));
  return parsed.success ? null : issuesToErrors(parsed.error.issues);
}
