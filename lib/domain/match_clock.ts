/**
 * Where each pick's match stands, the clock that scoring and captaincy follow. Every rule here
 * is per pick and per match: a pick's player plays in one match of the contest, and a contest on
 * one match is the case where all picks share it. A contest on no match follows its own status.
 *
 * - SCHEDULED: not kicked off yet.
 * - IN_PLAY: kicked off (the scheduled time passed, or the feed or a game event made the match
 *   LIVE earlier), no result saved yet.
 * - FULL_TIME: its result is saved (the feed's full time or the admin's scores: COMPLETED), or
 *   the contest itself was completed or cancelled.
 * - POSTPONED: an admin (or the feed) postponed it; its players score 0 in the contest.
 *
 * A pick is "still to play" while its match is SCHEDULED or IN_PLAY: it may yet score. A
 * postponed pick is not (it will not play in this contest); a pick at full time is done.
 */
import type { CompetitionStatus, Match } from "./types.ts";

export type MatchPhase = "SCHEDULED" | "IN_PLAY" | "FULL_TIME" | "POSTPONED";

/** The match fields the clock reads. */
export type MatchClockFields = Pick<Match, "status" | "kickoffTime">;

/** Whether the match is postponed (its players score 0; the rounds' late swap frees them). */
export function isPostponed(match: Pick<Match, "status">): boolean {
  return match.status === "POSTPONED";
}

/**
 * Whether the match has kicked off at `now`: reported so (LIVE, COMPLETED) or its scheduled
 * time passed. A postponed match has not, whatever its old kick-off said.
 */
export function hasKickedOff(match: MatchClockFields, now: Date): boolean {
  if (match.status === "POSTPONED") return false;
  if (match.status === "LIVE" || match.status === "COMPLETED") return true;
  return Date.parse(match.kickoffTime) <= now.getTime();
}

/** Whether the match is over: its result is saved (full time from the feed, or the admin's). */
export function isMatchOver(match: Pick<Match, "status">): boolean {
  return match.status === "COMPLETED";
}

/**
 * The phase of one match at `now` (see the module comment).
 * @example matchPhase({ status: "UPCOMING", kickoffTime: anHourAgo }, now) // "IN_PLAY"
 */
export function matchPhase(match: MatchClockFields, now: Date): MatchPhase {
  if (isPostponed(match)) return "POSTPONED";
  if (isMatchOver(match)) return "FULL_TIME";
  return hasKickedOff(match, now) ? "IN_PLAY" : "SCHEDULED";
}

/** The phase of a contest on no match: its status stands for the match it does not name. */
export function statusPhase(status: CompetitionStatus): MatchPhase {
  if (status === "UPCOMING") return "SCHEDULED";
  return status === "LIVE" ? "IN_PLAY" : "FULL_TIME";
}

/** Whether a pick in this phase may still score. */
export function isStillToPlay(phase: MatchPhase): boolean {
  return phase === "SCHEDULED" || phase === "IN_PLAY";
}

/** The phase of every pick of one contest at one moment. */
export interface PickClock {
  /** The phase of the match `playerId` plays in for the contest. */
  phaseOf(playerId: number): MatchPhase;
  /**
   * Every match of the contest is at full time or postponed (or the contest is completed): from
   * then on a postponed match counts as over for captaincy.
   */
  settled: boolean;
  /** When a phase next changes by the clock alone (a scheduled kick-off), ms; Infinity: never. */
  nextChangeMs: number;
  /** Equal for two clocks of a contest whose matches stand the same ("FULL_TIME,POSTPONED|1"). */
  key: string;
}

/**
 * The clock of a contest at `now`: `matchOf` gives the match a player plays in for it (null:
 * none known, the contest's status then stands for it); `matches` are all the contest's matches.
 * A completed or cancelled contest is over for every pick but the postponed ones.
 * @example pickClock(competition, [match], () => match, now).phaseOf(playerId) // "IN_PLAY"
 */
export function pickClock(
  competition: { status: CompetitionStatus },
  matches: readonly MatchClockFields[],
  matchOf: (playerId: number) => MatchClockFields | null | undefined,
  now: Date,
): PickClock {
  const ended = competition.status === "COMPLETED" || competition.status === "CANCELLED";
  const fallback = statusPhase(competition.status);
  // Phases by match, found once: the standings ask for every pick of every entry.
  const known = new Map<MatchClockFields, MatchPhase>();
  const phaseOfMatch = (match: MatchClockFields): MatchPhase => {
    let phase = known.get(match);
    if (phase === undefined) {
      phase = matchPhase(match, now);
      if (ended && phase !== "POSTPONED") phase = "FULL_TIME";
      known.set(match, phase);
    }
    return phase;
  };
  const phaseOf = (playerId: number): MatchPhase => {
    const match = matchOf(playerId);
    return match ? phaseOfMatch(match) : fallback;
  };
  const phases = matches.map(phaseOfMatch);
  const settled = ended ||
    (matches.length === 0
      ? fallback === "FULL_TIME"
      : phases.every((p) => p === "FULL_TIME" || p === "POSTPONED"));
  let nextChangeMs = Infinity;
  if (!ended) {
    matches.forEach((m, i) => {
      if (phases[i] === "SCHEDULED") {
        nextChangeMs = Math.min(nextChangeMs, Date.parse(m.kickoffTime));
      }
    });
  }
  const key = `${matches.length ? phases.join(",") : fallback}|${settled ? 1 : 0}`;
  return { phaseOf, settled, nextChangeMs, key };
}

/**
 * The clock of a contest on one match (or none): every pick shares `match`.
 * @example singleMatchClock(competition, match, now).settled // true once the result is saved
 */
export function singleMatchClock(
  competition: { status: CompetitionStatus },
  match: MatchClockFields | null,
  now: Date,
): PickClock {
  return pickClock(competition, match ? [match] : [], () => match, now);
}

/** How many of `playerIds` are still to play (see `isStillToPlay`). */
export function picksToPlay(playerIds: ArrayLike<number>, clock: PickClock): number {
  let n = 0;
  for (let i = 0; i < playerIds.length; i++) {
    if (isStillToPlay(clock.phaseOf(playerIds[i]))) n++;
  }
  return n;
}

/**
 * The points each player scores in the contest: his performance's points, 0 when his match is
 * postponed (whatever was recorded before it was called off).
 */
export function scoredPoints(
  performances: ReadonlyMap<number, { totalPoints: number }>,
  clock: PickClock,
): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, p] of performances) {
    out.set(id, clock.phaseOf(id) === "POSTPONED" ? 0 : p.totalPoints);
  }
  return out;
}
