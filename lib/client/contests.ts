/** Ordering of contest lists shared by the home page (server) and its refreshing island. */

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

/** The home page's tabs: open for entries (or about to start), being played, finished. */
export type ContestTab = "open" | "live" | "results";

/** The tab a competition is listed under. */
export function contestTab(c: { status: string }): ContestTab {
  if (c.status === "LIVE") return "live";
  if (c.status === "COMPLETED" || c.status === "CANCELLED") return "results";
  return "open";
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
  if (c.status !== "UPCOMING") return "This competition is closed for entries.";
  if (c.deadline && new Date(c.deadline).getTime() <= now) return "The entry deadline has passed.";
  if (c.maxEntries && (c.currentEntries ?? 0) >= c.maxEntries) return "This competition is full.";
  return null;
}
