/** Display helpers of the leaderboard page and team dialog. Pure and browser-safe. */
import { formatPrice } from "@/lib/domain/format.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";

/** Points with at most one decimal and no trailing ".0": 12 → "12", 4.5 → "4.5", -1 → "-1". */
export function formatPoints(n: number): string {
  const rounded = Math.round(n * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}

/** Points with their unit, as formatted by `formatPoints`: "1 pt", "4.5 pts", "0 pts". */
export function pointsText(points: number | string): string {
  const text = typeof points === "number" ? formatPoints(points) : points;
  return `${text} ${text === "1" ? "pt" : "pts"}`;
}

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
