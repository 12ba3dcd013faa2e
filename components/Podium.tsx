import { formatPoints, ordinal } from "@/lib/domain/format.ts";
import { rowPrizeText } from "@/lib/client/live/format.ts";
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

/**
 * The podium: the places 1st to 3rd among entries with more than 0 points. Tied
 * entries share a step (ranks 1, 2, 3, 3 put both 3rd places on the third step).
 */
export function Podium({ rows, currency, showPrizes, ownTeamIds }: PodiumProps) {
  const steps: LeaderboardRow[][] = [];
  for (const row of rows) {
    if (row.points <= 0 || row.rank > 3) continue;
    const last = steps[steps.length - 1];
    if (last && last[0].rank === row.rank) last.push(row);
    else steps.push([row]);
  }
  if (steps.length === 0) return null;
  return (
    <section aria-label="Podium" className="grid grid-cols-3 items-end gap-2 pt-4 sm:gap-3">
      {steps.map((step, i) => {
        const place = step[0].rank;
        return (
          <div
            key={place}
            data-testid="podium-step"
            data-place={place}
            className={cn(
              "flex min-w-0 flex-col items-center gap-1 rounded-xl border-2 p-2 text-center shadow-sm sm:p-4",
              MEDALS[Math.min(place, 3) - 1],
              ORDER[i],
            )}
          >
            <span className="text-sm font-bold text-muted-foreground sm:text-base">
              {ordinal(place)}
              {step.length > 1 && <span className="ml-1 text-xs font-medium">(tied)</span>}
            </span>
            <span className="text-xl font-extrabold tabular-nums sm:text-2xl">
              {formatPoints(step[0].points)}{" "}
              <span className="text-xs font-medium sm:text-sm">pts</span>
            </span>
            <ul className="grid w-full gap-1">
              {step.map((row) => {
                const prize = showPrizes ? rowPrizeText(row, currency) : null;
                return (
                  <li
                    key={row.id}
                    data-testid="podium-entry"
                    className={cn(
                      "grid gap-0.5 rounded-md",
                      ownTeamIds.has(row.teamId) && "ring-2 ring-primary",
                    )}
                  >
                    <span className="max-w-full break-words text-sm font-semibold leading-tight sm:text-lg">
                      {row.displayName}
                    </span>
                    {prize && (
                      <span className="max-w-full break-words text-xs font-semibold text-success sm:text-sm">
                        {prize}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
