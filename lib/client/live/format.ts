/** Display helpers of the leaderboard page and team dialog. Pure and browser-safe. */
import { formatPoints, formatPrice } from "@/lib/domain/format.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";

/** A share as a whole percentage, never rounding a pick down to 0%: 0.004 → "<1%", 0.5 → "50%". */
export function formatShare(share: number): string {
  if (share > 0 && share < 0.005) return "<1%";
  return `${Math.round(share * 100)}%`;
}

/** A breakdown line as the team dialog shows it: "count × value = result". */
export function formatLine(line: { count: number; value: number; points: number }): string {
  return `${formatPoints(line.count)} × ${formatPoints(line.value)} = ${formatPoints(line.points)}`;
}

/** What a row won once COMPLETED: the NON_CASH description, the money, or null for nothing. */
export function rowPrizeText(row: LeaderboardRow, currency: string): string | null {
  if (row.prizeType === "NON_CASH") return row.customPrizeDescription;
  if (row.prize === null || row.prize <= 0) return null;
  return formatPrice(row.prize, currency);
}
