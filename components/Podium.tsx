import { ordinal } from "../lib/domain/format.ts";
import { formatPoints, rowPrizeText } from "@/lib/client/live/format.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";
import { cn } from "@/lib/client/cn.ts";

export interface PodiumProps {
  /** The leaderboard's first rows; the podium keeps up to 3 with more than 0 points. */
  rows: LeaderboardRow[];
  currency: string;
  showPrizes: boolean;
  ownTeamIds: ReadonlySet<string>;
}

const MEDALS = [
  "border-amber-300 bg-amber-50",
  "border-slate-300 bg-slate-50",
  "border-orange-300 bg-orange-50",
];
/** On wide screens 2nd | 1st | 3rd, the winner in the middle and raised. */
const ORDER = ["order-2 pb-6 sm:pb-8", "order-1", "order-3"];

/** The top 3 entries with more than 0 points (SPEC §2, §9), with their prizes once COMPLETED. */
export function Podium({ rows, currency, showPrizes, ownTeamIds }: PodiumProps) {
  const top = rows.filter((row) => row.points > 0).slice(0, 3);
  if (top.length === 0) return null;
  return (
    <section aria-label="Podium" className="grid grid-cols-3 items-end gap-2 pt-4 sm:gap-3">
      {top.map((row, i) => {
        const prize = showPrizes ? rowPrizeText(row, currency) : null;
        return (
          <div
            key={row.id}
            data-testid="podium-entry"
            className={cn(
              "flex min-w-0 flex-col items-center gap-1 rounded-xl border-2 p-2 text-center shadow-sm sm:p-4",
              MEDALS[i],
              ORDER[i],
              ownTeamIds.has(row.teamId) && "ring-2 ring-primary",
            )}
          >
            <span className="text-sm font-bold text-muted-foreground sm:text-base">
              {ordinal(row.rank)}
            </span>
            <span className="max-w-full break-words text-sm font-semibold leading-tight sm:text-lg">
              {row.displayName}
            </span>
            <span className="text-xl font-extrabold tabular-nums sm:text-2xl">
              {formatPoints(row.points)} <span className="text-xs font-medium sm:text-sm">pts</span>
            </span>
            {prize && (
              <span className="max-w-full break-words text-xs font-semibold text-success sm:text-sm">
                {prize}
              </span>
            )}
          </div>
        );
      })}
    </section>
  );
}
