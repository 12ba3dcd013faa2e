/**
 * Rules of contests that span several matches (a round): when each pick locks, which swaps a
 * late-swap contest allows after its deadline, and the status a round's clock gives. Pure: the
 * server decides with these at commit, the builder shows the same answers.
 */
import { AUTO_COMPLETE_GRACE_MS } from "./competition.ts";
import type { Competition, Match } from "./types.ts";

/** The match fields a lock reads. */
export type LockMatch = Pick<Match, "id" | "homeTeamId" | "awayTeamId" | "kickoffTime" | "status">;

/**
 * Whether a match has kicked off at `now`: its scheduled time passed, or the feed or an admin
 * reported it under way or over (a kick-off reported early locks early, never later).
 * A postponed match (a status other than these) keeps its players open.
 */
export function hasKickedOff(match: Pick<Match, "kickoffTime" | "status">, now: Date): boolean {
  if (match.status === "LIVE" || match.status === "COMPLETED") return true;
  if (match.status !== "UPCOMING") return false;
  return Date.parse(match.kickoffTime) <= now.getTime();
}

/** The match of `matches` a club plays in, or null. */
export function matchOfClub<M extends LockMatch>(matches: readonly M[], clubId: number): M | null {
  return matches.find((m) => m.homeTeamId === clubId || m.awayTeamId === clubId) ?? null;
}

/** When a pick locks: its match's kick-off, and whether that has come. */
export interface PickLock {
  lockAt: string;
  locked: boolean;
}

/**
 * When the picks of `match` lock in a contest on `matches`: at its kick-off; a postponed match's
 * players stay open until the last kick-off of the others (late swap lets them be swapped for a
 * player who will play).
 */
export function matchLock(
  match: Pick<Match, "kickoffTime" | "status">,
  matches: readonly Pick<Match, "kickoffTime" | "status">[],
  now: Date,
): PickLock {
  if (match.status !== "POSTPONED") {
    return { lockAt: match.kickoffTime, locked: hasKickedOff(match, now) };
  }
  const others = matches.filter((m) => m.status !== "POSTPONED").map((m) => m.kickoffTime);
  const lockAt = others.sort().at(-1) ?? match.kickoffTime;
  return { lockAt, locked: Date.parse(lockAt) <= now.getTime() };
}

/**
 * The lock of a player of club `clubId` in a contest on `matches`; null when the club plays in
 * none of them (such a player is not in the contest).
 */
export function pickLock(
  matches: readonly LockMatch[],
  clubId: number,
  now: Date,
): PickLock | null {
  const match = matchOfClub(matches, clubId);
  return match ? matchLock(match, matches, now) : null;
}

/** "15:00 UTC": the clock time of a lock as the server words it. */
export function lockClock(iso: string): string {
  return `${new Date(iso).toISOString().slice(11, 16)} UTC`;
}

/** The refusal of a swap touching a locked pick: "Bukayo Saka locked at 15:00 UTC". */
export function lockedPickMessage(name: string, lockAt: string): string {
  return `${name} locked at ${lockClock(lockAt)}`;
}

/** A pick as the swap rule reads it. */
export interface SwapPick {
  id: number;
  name: string;
  lock: PickLock | null;
}

/**
 * Why changing the picks `before` into `after` is refused because one of the players taken out
 * or brought in has locked (the first such player named, with his lock time), or null. Picks
 * kept are never a reason: a locked pick simply stays.
 */
export function lockedSwapProblem(
  before: readonly SwapPick[],
  after: readonly SwapPick[],
): string | null {
  const kept = new Set(before.map((p) => p.id).filter((id) => after.some((p) => p.id === id)));
  const moved = [...before, ...after].filter((p) => !kept.has(p.id));
  const locked = moved.find((p) => p.lock?.locked);
  return locked ? lockedPickMessage(locked.name, locked.lock!.lockAt) : null;
}

/** Whether the contest spans a round (its picks lock one match at a time). */
export function isRoundContest(c: Pick<Competition, "roundId">): boolean {
  return typeof c.roundId === "number";
}

/**
 * Whether late swap applies to the contest: on, and the contest spans a round. Only then may a
 * team change after the deadline (and while LIVE), pick by pick.
 */
export function lateSwapOn(c: Pick<Competition, "roundId" | "lateSwap">): boolean {
  return c.lateSwap === true && isRoundContest(c);
}

/** The first kick-off of a round's matches (the contest's default deadline), or null. */
export function firstKickoff(matches: readonly Pick<Match, "kickoffTime">[]): string | null {
  const times = matches.map((m) => m.kickoffTime).sort();
  return times[0] ?? null;
}

/**
 * The status a round's clock gives an automatic contest at `now`, or null to leave it: LIVE
 * from the first kick-off, COMPLETED once every match has a result and the last one was saved
 * the grace period ago. Only UPCOMING and LIVE move, and only forward. One match is a round of
 * one (clockStatus in competition.ts gives the same answers).
 */
export function roundClockStatus(
  status: Competition["status"],
  matches: readonly Pick<Match, "kickoffTime" | "status" | "resultSavedAt">[],
  now: Date,
  graceMs = AUTO_COMPLETE_GRACE_MS,
): "LIVE" | "COMPLETED" | null {
  if (status !== "UPCOMING" && status !== "LIVE") return null;
  if (matches.length === 0) return null;
  // A postponed match will not be played in this round (its players score 0): the round is over
  // once every other match has its result.
  const played = matches.filter((m) => m.status !== "POSTPONED");
  if (played.length > 0 && played.every((m) => m.status === "COMPLETED")) {
    const last = Math.max(...played.map((m) => Date.parse(m.resultSavedAt ?? m.kickoffTime)));
    if (last + graceMs <= now.getTime()) return "COMPLETED";
  }
  if (status === "UPCOMING" && matches.some((m) => hasKickedOff(m, now))) return "LIVE";
  return null;
}
