/** Ordering of contest lists shared by the home page (server) and its refreshing island. */
import { closedReason } from "@/lib/domain/competition.ts";
import type { Competition } from "@/lib/domain/types.ts";

interface HasDeadline {
  id: number;
  deadline: string | null;
}

function deadlineTime(c: HasDeadline): number {
  const t = c.deadline ? new Date(c.deadline).getTime() : NaN;
  return Number.isNaN(t) ? Infinity : t;
}

/** A copy sorted by ascending deadline; no deadline last, ties by id. */
export function sortByDeadline<T extends HasDeadline>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => deadlineTime(a) - deadlineTime(b) || a.id - b.id);
}

/**
 * The home page's tabs: open for entries, closed (UPCOMING but past its deadline or full, so
 * nobody can enter it now), being played, finished.
 */
export type ContestTab = "open" | "closed" | "live" | "results";

/**
 * The tab a competition is listed under at `now`: "open" only while a visitor can still enter it.
 * @example contestTab({ status: "UPCOMING", deadline: yesterday }, Date.now()) // "closed"
 */
export function contestTab(c: EntryWindow, now: number): ContestTab {
  if (c.status === "LIVE") return "live";
  if (c.status === "COMPLETED" || c.status === "CANCELLED") return "results";
  return closedForEntries(c, now) === null ? "open" : "closed";
}

/** What a contest card, the builder and the payment page read to tell whether entries are open. */
export interface EntryWindow {
  status: string;
  deadline: string | null;
  maxEntries?: number | null;
  currentEntries?: number;
  cancelReason?: string | null;
}

/**
 * Why a competition takes no entry at `now`, in words for the visitor, or null while it is open
 * (UPCOMING, before its deadline, not full).
 * @example closedForEntries({ status: "COMPLETED", deadline }, Date.now()) // "This competition has finished."
 */
export function closedForEntries(c: EntryWindow, now: number): string | null {
  if (c.status === "CANCELLED") {
    const why = c.cancelReason ? `: ${c.cancelReason.replace(/\.?$/, ".")}` : ".";
    return `This competition was cancelled${why} Every entry has been refunded.`;
  }
  if (c.status === "LIVE") return "This competition is live: entries are closed.";
  if (c.status === "COMPLETED") return "This competition has finished.";
  // The rest is the server's rule; no deadline or a limit of 0 means none.
  return closedReason({
    status: c.status as Competition["status"],
    deadline: c.deadline ?? NO_DEADLINE,
    maxEntries: c.maxEntries || null,
    currentEntries: c.currentEntries ?? 0,
  }, now);
}

/** The latest date a Date can hold: a contest without a deadline never reaches it. */
const NO_DEADLINE = new Date(8.64e15).toISOString();
