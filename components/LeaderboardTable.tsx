import { Badge } from "./ui/Badge.tsx";
import { Button } from "./ui/Button.tsx";
import { formatPoints, rowPrizeText } from "@/lib/client/live/format.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";
import { cn } from "@/lib/client/cn.ts";

export interface LeaderboardTableProps {
  rows: LeaderboardRow[];
  currency: string;
  /** View Team is not shown for UPCOMING competitions. */
  showViewTeam: boolean;
  showPrizes: boolean;
  ownTeamIds: ReadonlySet<string>;
  onView(row: LeaderboardRow): void;
  label: string;
}

/** The ranking table: Rank, Display Name, Points and View Team; the visitor's rows highlighted. */
export function LeaderboardTable(props: LeaderboardTableProps) {
  const { rows, currency, showViewTeam, showPrizes, ownTeamIds, onView, label } = props;
  return (
    <div className="overflow-x-auto rounded-xl border border-border bg-card shadow-sm">
      <table className="w-full text-sm" aria-label={label}>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="w-12 px-3 py-3 sm:w-16 sm:px-4">Rank</th>
            <th scope="col" className="px-3 py-3 sm:px-4">Display Name</th>
            <th scope="col" className="w-16 px-3 py-3 text-right sm:w-20 sm:px-4">Points</th>
            {showViewTeam && (
              <th scope="col" className="w-20 px-3 py-3 text-right sm:w-28 sm:px-4">View Team</th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const own = ownTeamIds.has(row.teamId);
            const prize = showPrizes ? rowPrizeText(row, currency) : null;
            return (
              <tr
                key={row.id}
                data-team-id={row.teamId}
                data-own={own ? "true" : undefined}
                aria-current={own ? "true" : undefined}
                className={cn(
                  "border-t border-border",
                  own ? "bg-primary/10 font-medium" : "hover:bg-muted/40",
                )}
              >
                <td className="px-3 py-3 font-bold tabular-nums sm:px-4">{row.rank}</td>
                <td className="px-3 py-3 sm:px-4">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="break-words">{row.displayName}</span>
                    {own && <Badge variant="default">You</Badge>}
                    {prize && <Badge variant="success">{prize}</Badge>}
                  </div>
                </td>
                <td className="px-3 py-3 text-right font-semibold tabular-nums sm:px-4">
                  {formatPoints(row.points)}
                </td>
                {showViewTeam && (
                  <td className="px-3 py-2 text-right sm:px-4">
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => onView(row)}
                      aria-label={`View ${row.displayName}'s team`}
                    >
                      View
                    </Button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
