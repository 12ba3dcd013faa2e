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
