/** Rules about one competition that the server and the browser both apply. */
import { roundMoney } from "@/lib/domain/format.ts";
import type { Competition } from "@/lib/domain/types.ts";

/** The fields that decide whether a competition takes entries. */
export type EntryWindow = Pick<
  Competition,
  "status" | "deadline" | "maxEntries" | "currentEntries"
>;

/**
 * Why `competition` takes no entry at `now` (not UPCOMING, deadline passed, or full), or null
 * when it is open. Entries, payments and the team builder all ask this one function.
 * @example closedReason({ status: "LIVE", … }, new Date()) // "This competition is closed for entries."
 */
export function closedReason(
  competition: EntryWindow,
  now: Date | number = new Date(),
): string | null {
  if (competition.status !== "UPCOMING") return "This competition is closed for entries.";
  if (new Date(competition.deadline).getTime() <= new Date(now).getTime()) {
    return "The entry deadline has passed.";
  }
  const { maxEntries, currentEntries } = competition;
  if (maxEntries !== null && currentEntries >= maxEntries) return "This competition is full.";
  return null;
}

/**
 * The smallest amount the card provider can charge in each currency (Stripe's minimums): a
 * lower entry fee would make every payment fail.
 */
export const MINIMUM_CHARGE: Record<Competition["currency"], number> = { USD: 0.5, GBP: 0.3 };

/** Why `entryFee` cannot be charged in `currency`, or null when it can. */
export function entryFeeProblem(
  entryFee: number,
  currency: Competition["currency"],
): string | null {
  const minimum = MINIMUM_CHARGE[currency];
  if (minimum === undefined || entryFee >= minimum) return null;
  const symbol = currency === "USD" ? "$" : "£";
  return `Entry fee must be at least ${symbol}${
    minimum.toFixed(2)
  }: card payments below that in ${currency} are refused.`;
}

/** Money taken by a competition's paid entries. */
export function revenue(entries: number, entryFee: number): number {
  return roundMoney(entries * entryFee);
}

/**
 * Money a competition keeps: its paid entries times the fee, and nothing once it is CANCELLED
 * (cancelling refunds every paid entry). The dashboard's revenue adds these up.
 * @example competitionRevenue({ status: "CANCELLED", currentEntries: 4, entryFee: 10 }) // 0
 */
export function competitionRevenue(
  competition: Pick<Competition, "status" | "currentEntries" | "entryFee">,
): number {
  if (competition.status === "CANCELLED") return 0;
  return revenue(competition.currentEntries, competition.entryFee);
}

/** When a status change goes against the clock: what the admin is asked to confirm. */
export interface StatusClock {
  /** The match's kick-off (else the deadline), ISO. */
  kickoffTime: string;
  /** The match has a saved result (COMPLETED); false without a match. */
  hasResult: boolean;
  /** The competition has a match. */
  hasMatch: boolean;
}

function minutesWords(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} hours` : `${Math.round(hours / 24)} days`;
}

/**
 * Why moving a competition from `from` to `to` at `now` needs the admin's confirmation with a
 * reason (LIVE before kick-off, COMPLETED before the match has a result), or null when the clock
 * agrees. Leaving COMPLETED is asked about by the caller, which knows the prizes.
 * @example statusAgainstClock("UPCOMING", "LIVE", { kickoffTime, hasResult: false, hasMatch: true }, now)
 * // "The match kicks off in 47 minutes (2026-11-27 20:00 UTC): going LIVE now closes entries early."
 */
export function statusAgainstClock(
  from: Competition["status"],
  to: Competition["status"],
  clock: StatusClock,
  now: Date,
): string | null {
  if (from === to) return null;
  const kickoff = new Date(clock.kickoffTime);
  const early = kickoff.getTime() - now.getTime();
  const when = `${kickoff.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const what = clock.hasMatch ? "The match kicks off" : "The deadline is";
  if (to === "LIVE" && early > 0) {
    return `${what} in ${minutesWords(early)} (${when}): going LIVE now closes entries early.`;
  }
  if (to === "COMPLETED" && !clock.hasResult) {
    const why = !clock.hasMatch
      ? "This competition has no match, so no result shows it is over"
      : early > 0
      ? `The match has not kicked off yet (in ${minutesWords(early)}, ${when})`
      : "The match has no result yet";
    return `${why}: completing it now awards the prizes and e-mails the winners.`;
  }
  return null;
}

/**
 * How long after a match's result is saved an automatic competition becomes COMPLETED (time to
 * correct a wrong score or a late event before the prizes are awarded).
 */
export const AUTO_COMPLETE_GRACE_MS = 30 * 60_000;

/**
 * The status the clock gives an automatic competition at `now`, or null to leave it: LIVE from
 * kick-off, COMPLETED once its match's result was saved AUTO_COMPLETE_GRACE_MS ago. Only
 * UPCOMING and LIVE competitions move, and only forward.
 * @example clockStatus("UPCOMING", { kickoffTime: past, resultSavedAt: null }, now) // "LIVE"
 */
export function clockStatus(
  status: Competition["status"],
  match: { kickoffTime: string; status: string; resultSavedAt?: string | null },
  now: Date,
  graceMs = AUTO_COMPLETE_GRACE_MS,
): "LIVE" | "COMPLETED" | null {
  if (status !== "UPCOMING" && status !== "LIVE") return null;
  // A postponed match does not kick off at its old time.
  if (match.status === "POSTPONED") return null;
  if (match.status === "COMPLETED") {
    const saved = Date.parse(match.resultSavedAt ?? match.kickoffTime);
    if (saved + graceMs <= now.getTime()) return "COMPLETED";
  }
  if (status === "UPCOMING" && Date.parse(match.kickoffTime) <= now.getTime()) return "LIVE";
  return null;
}

/**
 * Why a visitor's team is locked at `now`, naming which: the contest went live (early or on
 * time), finished, or its deadline passed; null while it can still change. Full is no reason.
 * @example lockedBecause({ status: "LIVE", deadline: inAnHour }, now) // "The contest went live: …"
 */
export function lockedBecause(
  competition: Pick<Competition, "status" | "deadline">,
  now: Date,
): string | null {
  if (competition.status === "LIVE") return LOCKED_LIVE;
  if (competition.status === "COMPLETED") return LOCKED_COMPLETED;
  if (competition.status === "CANCELLED") return "This competition was cancelled.";
  if (new Date(competition.deadline).getTime() <= now.getTime()) return LOCKED_DEADLINE;
  return null;
}

export const LOCKED_DEADLINE = "The deadline has passed: this team is locked.";
export const LOCKED_LIVE = "The contest went live: this team is locked.";
export const LOCKED_COMPLETED = "The contest has finished: this team is locked.";
