/** Display helpers of the leaderboard page and team dialog. Pure and browser-safe. */
import { formatPoints, formatPrice } from "@/lib/domain/format.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";

/** A share as a whole percentage, never rounding a pick down to 0%: 0.004 → "<1%", 0.5 → "50%". */
export function formatShare(share: number): string {
  if (share > 0 && share < 0.005) return "<1%";
  return `${Math.round(share * 100)}%`;
}

/**
 * A breakdown line as the team dialog shows it: "count × value = result". The captain's line says
 * what the multiplier did to the pick's own points ("4 pts × 2 = 8, +4"): its count is those
 * points and its value the multiplier's extra, which read as "4 × 1 = 4" meant nothing to anyone.
 */
export function formatLine(
  line: { key?: string; count: number; value: number; points: number },
): string {
  if (line.key === "captain") {
    const multiplier = Math.round((line.value + 1) * 10) / 10;
    const total = line.count + line.points;
    const extra = line.points < 0
      ? `−${formatPoints(-line.points)}`
      : `+${formatPoints(line.points)}`;
    return `${formatPoints(line.count)} pts × ${formatPoints(multiplier)} = ${
      formatPoints(total)
    }, ${extra}`;
  }
  return `${formatPoints(line.count)} × ${formatPoints(line.value)} = ${formatPoints(line.points)}`;
}

/** What a row won once COMPLETED: the NON_CASH description, the money, or null for nothing. */
export function rowPrizeText(row: LeaderboardRow, currency: string): string | null {
  if (row.prizeType === "NON_CASH") return row.customPrizeDescription;
  if (row.prize === null || row.prize <= 0) return null;
  return formatPrice(row.prize, currency);
}
