/**
 * The competition form's values (strings, as typed), its defaults and the payload it
 * sends. Validation is the shared `competitionInputSchema`, so messages match the server's.
 */
import { competitionInputSchema } from "@/lib/domain/schemas/competitions.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { captainMultiplierOf, DEFAULT_CAPTAIN_MULTIPLIER } from "@/lib/domain/captain.ts";
import { DEFAULT_RULES, suggestedSalaryCap } from "@/lib/domain/team_rules.ts";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";
import { daysAheadParts, fromLocalParts, toLocalParts } from "@/lib/client/admin/datetime.ts";
import { type FieldErrors, issuesToErrors } from "@/lib/client/form_errors.ts";

export interface CompetitionFormValues {
  name: string;
  league: string;
  matchId: string;
  /** The round the contest spans instead of one match ("" for none). */
  roundId: string;
  /** Late swap (round contests): open picks may change after the deadline. */
  lateSwap: boolean;
  description: string;
  entryFee: string;
  prizePool: string;
  currency: string;
  prizeType: string;
  customPrizeDescription: string;
  deadlineDate: string;
  deadlineTime: string;
  status: string;
  maxEntries: string;
  minEntries: string;
  maxEntriesPerPerson: string;
  imageUrl: string;
  maxPlayersPerTeam: string;
  maxForwards: string;
  minDefenders: string;
  salaryCap: string;
  /** The status follows the clock (LIVE at kick-off, COMPLETED after the result). */
  autoStatus: boolean;
  /** Teams name a captain and a vice-captain, whose points count `captainMultiplier` times. */
  captains: boolean;
  captainMultiplier: string;
}

/** A new competition: fee 10, pool 100, USD, CASH, UPCOMING, 100 entries, cap 5000, 7 days. */
export function defaultCompetitionValues(now: Date = new Date()): CompetitionFormValues {
  const deadline = daysAheadParts(7, now);
  return {
    name: "",
    league: "PREMIER_LEAGUE",
    matchId: "",
    roundId: "",
    lateSwap: false,
    description: "",
    entryFee: "10",
    prizePool: "100",
    currency: "USD",
    prizeType: "CASH",
    customPrizeDescription: "",
    deadlineDate: deadline.date,
    deadlineTime: deadline.time,
    status: "UPCOMING",
    maxEntries: "100",
    minEntries: "",
    maxEntriesPerPerson: "1",
    imageUrl: "",
    maxPlayersPerTeam: "3",
    maxForwards: "2",
    minDefenders: "1",
    // Until a match is chosen (which suggests a cap from its players), the rules' default.
    salaryCap: String(DEFAULT_RULES.salaryCap),
    autoStatus: true,
    captains: false,
    captainMultiplier: "2",
  };
}

const text = (
  v: string | number | null | undefined,
) => (v === null || v === undefined ? "" : String(v));

/** The form values of an existing competition (deadline in the admin's time zone). */
export function competitionToValues(c: Competition): CompetitionFormValues {
  const deadline = toLocalParts(c.deadline);
  return {
    name: c.name,
    league: c.league,
    matchId: text(c.matchId),
    roundId: text(c.roundId),
    lateSwap: c.lateSwap === true,
    description: text(c.description),
    entryFee: text(c.entryFee),
    prizePool: text(c.prizePool),
    currency: c.currency,
    prizeType: c.prizeType,
    customPrizeDescription: text(c.customPrizeDescription),
    deadlineDate: deadline.date,
    deadlineTime: deadline.time,
    status: c.status,
    maxEntries: text(c.maxEntries),
    minEntries: text(c.minEntries),
    maxEntriesPerPerson: text(c.maxEntriesPerPerson ?? 1),
    imageUrl: text(c.imageUrl),
    maxPlayersPerTeam: text(c.maxPlayersPerTeam),
    maxForwards: text(c.maxForwards),
    minDefenders: text(c.minDefenders),
    salaryCap: text(c.salaryCap),
    autoStatus: c.autoStatus === true,
    captains: captainMultiplierOf(c) !== null,
    captainMultiplier: text(captainMultiplierOf(c) ?? DEFAULT_CAPTAIN_MULTIPLIER),
  };
}

/** The API body: money as strings, the deadline as a UTC ISO date-time, blanks as null. */
export function competitionPayload(v: CompetitionFormValues): Record<string, unknown> {
  return {
    name: v.name,
    league: v.league,
    matchId: v.matchId === "" ? null : Number(v.matchId),
    roundId: v.roundId === "" ? null : Number(v.roundId),
    lateSwap: v.roundId !== "" && v.lateSwap,
    description: v.description,
    entryFee: v.entryFee,
    prizePool: v.prizePool,
    currency: v.currency,
    prizeType: v.prizeType,
    customPrizeDescription: v.prizeType === "NON_CASH" ? v.customPrizeDescription : null,
    deadline: fromLocalParts({ date: v.deadlineDate, time: v.deadlineTime }),
    status: v.status,
    maxEntries: v.maxEntries.trim() === "" ? null : v.maxEntries,
    minEntries: v.minEntries.trim() === "" ? null : v.minEntries,
    maxEntriesPerPerson: v.maxEntriesPerPerson,
    imageUrl: v.imageUrl,
    maxPlayersPerTeam: v.maxPlayersPerTeam,
    maxForwards: v.maxForwards,
    minDefenders: v.minDefenders,
    salaryCap: v.salaryCap,
    autoStatus: v.autoStatus,
    captainMultiplier: v.captains ? v.captainMultiplier : null,
  };
}

/** Field errors of the form (keyed by payload field; the deadline error is under "deadline"). */
export function validateCompetition(v: CompetitionFormValues): FieldErrors | null {
  const parsed = competitionInputSchema.safeParse(competitionPayload(v));
  return parsed.success ? null : issuesToErrors(parsed.error.issues);
}

/**
 * The warning shown when the deadline falls after the match's kick-off (entries would stay open
 * while the match is played), or null.
 */
export function deadlineWarning(
  v: CompetitionFormValues,
  kickoffTime: string | null,
): string | null {
  if (!kickoffTime) return null;
  const deadline = fromLocalParts({ date: v.deadlineDate, time: v.deadlineTime });
  if (!deadline || Date.parse(deadline) <= Date.parse(kickoffTime)) return null;
  return "The deadline is after the match kicks off: entries would stay open during play.";
}

/**
 * The cap a form on a match starts from, derived from its two clubs' players under the form's
 * rules (lib/domain/team_rules.ts `suggestedSalaryCap`); null when they have fewer than 5.
 */
export function capForMatch(
  values: Pick<CompetitionFormValues, "maxPlayersPerTeam" | "maxForwards" | "minDefenders">,
  match: { homeTeamId: number; awayTeamId: number },
  players: PlayerWithTeam[],
): number | null {
  const clubs = new Set([match.homeTeamId, match.awayTeamId]);
  const whole = (v: string, fallback: number) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= 0 ? n : fallback;
  };
  return suggestedSalaryCap(players.filter((p) => clubs.has(p.teamId)), {
    maxPlayersPerTeam: whole(values.maxPlayersPerTeam, DEFAULT_RULES.maxPlayersPerTeam),
    maxForwards: whole(values.maxForwards, DEFAULT_RULES.maxForwards),
    minDefenders: whole(values.minDefenders, DEFAULT_RULES.minDefenders),
  });
}

/** Whether the cap field still holds a default (the rules' or a suggestion), not the admin's. */
export function capUntouched(salaryCap: string, lastSuggested: string | null): boolean {
  return salaryCap === String(DEFAULT_RULES.salaryCap) || salaryCap === lastSuggested;
}
