/**
 * Captain and vice-captain, a competition option (`captainMultiplier`; absent or null: off, the
 * plain scoring table of lib/domain/scoring.ts). With it on, every team names a captain among its
 * picks, whose points count `multiplier` times, and a vice-captain, another pick. Points stay
 * exact in tenths: the acting captain's points times the multiplier are rounded to 0.1, half up
 * (see `multiplyPoints`).
 *
 * Who acts (Fantasy Premier League's rule, per pick, following the captain's own match; see
 * lib/domain/match_clock.ts for the phases):
 * - The captain is the acting captain from the start: his multiplier counts from his match's
 *   kick-off, whatever minutes are recorded while it is in play (a player on the pitch often has
 *   none recorded until later).
 * - The vice-captain takes the multiplier over ONLY when the captain's match is over (its result
 *   saved: full time from the feed, or the admin's scores) and the captain did not play (0
 *   minutes and no points, see `played`). He then keeps it, his later points included.
 * - A postponed match counts as over for captaincy only once every other match of the contest
 *   is over (or the contest is completed): a captain whose match is called off hands the
 *   multiplier to his vice when the contest's last match ends, not before: a match first reported
 *   postponed is often played after all (a delayed kick-off, the admin clears the status), and
 *   the armband must not flip back and forth meanwhile. In a contest on one match that is
 *   postponed, every pick scores 0 anyway.
 */
import { InvalidInputError, type Issue } from "./errors.ts";
import type { PickClock } from "./match_clock.ts";
import type { Competition, PerformanceStats } from "./types.ts";

/** The multiplier's range and step in the admin form. */
export const MIN_CAPTAIN_MULTIPLIER = 1.5;
export const MAX_CAPTAIN_MULTIPLIER = 3;
export const DEFAULT_CAPTAIN_MULTIPLIER = 2;

export const CAPTAIN_REQUIRED = "Choose a captain among your 5 players";
export const VICE_REQUIRED = "Choose a vice-captain among your 5 players";
export const CAPTAIN_NOT_PICKED = "Captain must be one of your 5 players";
export const VICE_NOT_PICKED = "Vice-captain must be one of your 5 players";
export const VICE_IS_CAPTAIN = "Vice-captain must be another player than the captain";
export const CAPTAIN_OFF = "This contest has no captains";
/** (A plain string: a template would keep it in every bundle that imports this module.) */
export const MULTIPLIER_RANGE = "Captain multiplier must be from 1.5 to 3 in steps of 0.1";

/** Any competition with captains, for checks of a choice's shape alone. */
export const WITH_CAPTAINS = { captainMultiplier: DEFAULT_CAPTAIN_MULTIPLIER } as const;

/** The competition's captain multiplier, or null when it has no captains. */
export function captainMultiplierOf(competition: Pick<Competition, "captainMultiplier">) {
  const m = competition.captainMultiplier;
  return typeof m === "number" && Number.isFinite(m) && m > 1 ? m : null;
}

/** Whether `m` is a multiplier the admin may choose: 1.5 to 3 in steps of 0.1. */
export function validMultiplier(m: number): boolean {
  return Number.isFinite(m) && m >= MIN_CAPTAIN_MULTIPLIER && m <= MAX_CAPTAIN_MULTIPLIER &&
    Math.abs(m * 10 - Math.round(m * 10)) < 1e-9;
}

/** "×2", "×1.5": how a multiplier is written next to a captain. */
export function multiplierText(m: number): string {
  return `×${Number(m.toFixed(1))}`;
}

/**
 * `points × multiplier` exactly in tenths: both are read as whole tenths, multiplied as integers
 * (hundredths) and rounded half up to a tenth, so 0.5 × 1.5 = 0.8 and -0.5 × 1.5 = -0.7.
 */
export function multiplyPoints(points: number, multiplier: number): number {
  const hundredths = Math.round(points * 10) * Math.round(multiplier * 10);
  const tenths = Math.floor((hundredths + 5) / 10);
  return tenths === 0 ? 0 : tenths / 10;
}

/** A team's captain choice (both absent when the competition has no captains). */
export interface Captaincy {
  captainId?: number;
  viceCaptainId?: number;
}

/** Only the captain fields of `source` that are set (absent ones stay absent). */
export function captaincyOf(source: Captaincy): Captaincy {
  const out: Captaincy = {};
  if (source.captainId !== undefined) out.captainId = source.captainId;
  if (source.viceCaptainId !== undefined) out.viceCaptainId = source.viceCaptainId;
  return out;
}

/**
 * The problems of a team's captain choice in `competition`, as field issues (empty when fine):
 * both required and among the picks when the option is on, refused when it is off.
 */
export function captainProblems(
  competition: Pick<Competition, "captainMultiplier">,
  playerIds: readonly number[],
  { captainId, viceCaptainId }: Captaincy,
): Issue[] {
  const issues: Issue[] = [];
  if (captainMultiplierOf(competition) === null) {
    if (captainId !== undefined) issues.push({ path: ["captainId"], message: CAPTAIN_OFF });
    if (viceCaptainId !== undefined) {
      issues.push({ path: ["viceCaptainId"], message: CAPTAIN_OFF });
    }
    return issues;
  }
  if (captainId === undefined) issues.push({ path: ["captainId"], message: CAPTAIN_REQUIRED });
  else if (!playerIds.includes(captainId)) {
    issues.push({ path: ["captainId"], message: CAPTAIN_NOT_PICKED });
  }
  if (viceCaptainId === undefined) {
    issues.push({ path: ["viceCaptainId"], message: VICE_REQUIRED });
  } else if (!playerIds.includes(viceCaptainId)) {
    issues.push({ path: ["viceCaptainId"], message: VICE_NOT_PICKED });
  } else if (viceCaptainId === captainId) {
    issues.push({ path: ["viceCaptainId"], message: VICE_IS_CAPTAIN });
  }
  return issues;
}

/** Throws a 400 naming the field when the captain choice does not fit `competition`. */
export function assertCaptaincy(
  competition: Pick<Competition, "captainMultiplier">,
  playerIds: readonly number[],
  captaincy: Captaincy,
): void {
  const issues = captainProblems(competition, playerIds, captaincy);
  if (issues.length > 0) throw new InvalidInputError(issues[0].message, issues);
}

/**
 * What a builder says before leaving a complete team without its captains (null: fine): the
 * field's message, in the words the server uses.
 */
export function missingCaptain(
  competition: Pick<Competition, "captainMultiplier">,
  captainId: number | null,
  viceCaptainId: number | null,
): string | null {
  if (captainMultiplierOf(competition) === null) return null;
  if (captainId === null) return CAPTAIN_REQUIRED;
  return viceCaptainId === null ? VICE_REQUIRED : null;
}

/**
 * The choice an entry keeps in `competition` as read at its commit: the given one when valid
 * there, else none (a choice checked before payment that the commit's read no longer allows
 * makes the entry without captains rather than refund a paid team).
 */
export function keptCaptaincy(
  competition: Pick<Competition, "captainMultiplier">,
  playerIds: readonly number[],
  captaincy: Captaincy,
): Captaincy {
  if (captainMultiplierOf(competition) === null) return {};
  if (captainProblems(competition, playerIds, captaincy).length > 0) return {};
  return { captainId: captaincy.captainId, viceCaptainId: captaincy.viceCaptainId };
}

/** Whether a player took part: minutes recorded, or points from an event (a goal means he played). */
export function played(stats: Pick<PerformanceStats, "minutesPlayed"> & { totalPoints?: number }) {
  return stats.minutesPlayed > 0 || (stats.totalPoints ?? 0) !== 0;
}

/** What the standings need to score captains: the multiplier, who played, and the match clock. */
export interface CaptainScoring {
  multiplier: number;
  /** Ids of the players who played (see `played`); never one whose match is postponed. */
  played: ReadonlySet<number>;
  /** Where each pick's match stands. */
  clock: PickClock;
}

/**
 * The captain scoring of a competition from its performances at `clock`; null when it has no
 * captains.
 */
export function captainScoring(
  competition: Pick<Competition, "captainMultiplier">,
  performances: ReadonlyMap<
    number,
    Pick<PerformanceStats, "minutesPlayed"> & {
      totalPoints: number;
    }
  >,
  clock: PickClock,
): CaptainScoring | null {
  const multiplier = captainMultiplierOf(competition);
  if (multiplier === null) return null;
  const ids = new Set<number>();
  for (const [id, p] of performances) {
    if (played(p) && clock.phaseOf(id) !== "POSTPONED") ids.add(id);
  }
  return { multiplier, played: ids, clock };
}

/**
 * Whether the captain's part is over for captaincy: his match's result is saved, or it is
 * postponed and the contest's other matches are all over (see the module comment).
 */
export function captainMatchOver(clock: PickClock, captainId: number): boolean {
  const phase = clock.phaseOf(captainId);
  return phase === "FULL_TIME" || (phase === "POSTPONED" && clock.settled);
}

/** A pick's role letter in an entry: "C" (captain), "V" (vice-captain) or null. */
export function roleOf(
  entry: { captainId?: number; viceCaptainId?: number },
  playerId: number,
): "C" | "V" | null {
  if (entry.captainId === playerId) return "C";
  return entry.viceCaptainId === playerId ? "V" : null;
}

/** The breakdown line of the pick that takes the multiplier: its extra points. */
export function captainLine(
  points: number,
  multiplier: number,
  vice: boolean,
): { key: "captain"; label: string; count: number; value: number; points: number } {
  const extra = Math.round((multiplyPoints(points, multiplier) - points) * 10) / 10;
  return {
    key: "captain",
    label: `${vice ? "Vice-captain" : "Captain"} ${multiplierText(multiplier)}`,
    count: points,
    value: Math.round((multiplier - 1) * 10) / 10,
    points: extra === 0 ? 0 : extra,
  };
}

/**
 * The acting captain, the pick whose points count `multiplier` times: the captain, unless his
 * match is over (`captainMatchOver`) and he did not play, then the vice-captain. 0 when the
 * entry names no captain; the captain when it names no vice.
 * @example actingCaptain(7, 9, { played: new Set(), clock }) // 7 while 7's match is in play
 */
export function actingCaptain(
  captainId: number,
  viceId: number,
  { played, clock }: Pick<CaptainScoring, "played" | "clock">,
): number {
  if (!captainId) return 0;
  if (!viceId) return captainId;
  return captainMatchOver(clock, captainId) && !played.has(captainId) ? viceId : captainId;
}
