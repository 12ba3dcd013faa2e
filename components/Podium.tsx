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
/** 2nd | 1st | 3rd, the winner in the middle; with two steps 2nd | 1st. */
const ORDER = ["order-2", "order-1", "order-3"];
/** Each step's least height, the winner's the tallest, so a tie never sinks the 1st step. */
const HEIGHT = [
  "min-h-[9.5rem] sm:min-h-[11rem]",
  "min-h-[8rem] sm:min-h-[9rem]",
  "min-h-[7rem] sm:min-h-[8rem]",
];
const COLUMNS = ["grid-cols-1 max-w-[12rem] mx-auto w-full", "grid-cols-2", "grid-cols-3"];
/** Names a step lists before "+n more": a four-way tie must not tower over the winner. */
const NAMES_SHOWN = 2;

/**
 * The podium: the places 1st to 3rd among entries with more than 0 points. Tied
 * entries share a step (ranks 1, 2, 3, 3 put both 3rd places on the third step), which names
 * two of them and counts the rest; there are as many columns as steps (ranks 1, 2, 2, 2 make
 * two), so no third of the width stays empty.
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
    <section
      aria-label="Podium"
      className={cn("grid items-end gap-2 pt-4 sm:gap-3", COLUMNS[steps.length - 1])}
    >
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
              HEIGHT[i],
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
              {step.slice(0, NAMES_SHOWN).map((row) => {
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
              {step.length > NAMES_SHOWN && (
                <li className="text-xs font-medium text-muted-foreground" data-testid="podium-more">
                  +{step.length - NAMES_SHOWN} more
                </li>
              )}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
