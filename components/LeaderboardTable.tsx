import { Badge } from "./ui/Badge.tsx";
import { Button } from "./ui/Button.tsx";
import { formatPoints, lastName } from "@/lib/domain/format.ts";
import { rowPrizeText } from "@/lib/client/live/format.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";
import { cn } from "@/lib/client/cn.ts";
import type { RankMove } from "@/lib/client/live/use_rank_moves.ts";

export interface LeaderboardTableProps {
  /** `contestRank`: a league's row, ranked within the league (see `league`). */
  rows: (LeaderboardRow & { contestRank?: number })[];
  currency: string;
  /** View Team is not shown for UPCOMING competitions. */
  showViewTeam: boolean;
  showPrizes: boolean;
  ownTeamIds: ReadonlySet<string>;
  onView(row: LeaderboardRow): void;
  label: string;
  /** False before kick-off: every entry is level, so no one is shown as 1st. */
  ranked: boolean;
  /** How rows moved since the previous board, by team ID. */
  moves?: ReadonlyMap<string, RankMove>;
  /** A friends' league's board: a Contest column with each row's rank in the competition. */
  league?: boolean;
}

/** ▲2 / ▼1 beside a rank that moved, with words for screen readers. */
function MoveArrow({ places }: { places: number }) {
  if (places === 0) return null;
  const up = places > 0;
  return (
    <span
      className={cn("ml-1 text-xs font-semibold", up ? "text-success" : "text-destructive")}
      data-move={up ? "up" : "down"}
      title={`${up ? "Up" : "Down"} ${Math.abs(places)}`}
    >
      <span aria-hidden="true">{up ? "▲" : "▼"}{Math.abs(places)}</span>
      <span className="sr-only">
        {up ? "up" : "down"} {Math.abs(places)} {Math.abs(places) === 1 ? "place" : "places"}
      </span>
    </span>
  );
}

/**
 * A "C" or "V" disc (as in the team dialog) and the player's last name; the full name on hover.
 * The acting captain's disc is filled, the other one outlined.
 */
function Armband({ role, name, acting }: { role: "C" | "V"; name: string; acting: boolean }) {
  return (
    <span className="inline-flex items-center gap-0.5" title={name}>
      <span
        className={cn(
          "inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-[11px] font-bold",
          acting ? "bg-primary text-primary-foreground" : "border border-border text-foreground",
        )}
      >
        {role}
      </span>
      <span className="break-words">{lastName(name)}</span>
    </span>
  );
}

/**
 * A row's captain and vice-captain: shown as C / V beside their last names, read out in full
 * ("Captain: …, vice-captain: …") at every width, with the acting captain (whose points count
 * the multiplier now) filled. Both show at every width: on a phone the V wraps below the C
 * when the two do not fit one line of the name cell (hiding it left phones without the vice).
 */
function Captains({ row }: { row: LeaderboardRow }) {
  const { captainName: captain, viceCaptainName: vice, actingCaptainRole: acting } = row;
  if (!captain && !vice) return null;
  const words = [
    captain && `Captain: ${captain}`,
    vice && `vice-captain: ${vice}`,
    row.actingCaptainName && `acting captain: ${row.actingCaptainName}`,
  ];
  // Before the acting captain is known to others, the captain's disc is filled as before.
  const viceActs = acting === "V";
  return (
    <span
      className="flex w-full flex-wrap items-center gap-x-2 gap-y-1 text-xs font-normal text-muted-foreground sm:w-auto"
      data-captains=""
      data-acting={acting}
    >
      <span className="sr-only">{words.filter(Boolean).join(", ")}</span>
      {captain && (
        <span aria-hidden="true" data-armband="C">
          <Armband role="C" name={captain} acting={!viceActs} />
        </span>
      )}
      {vice && (
        <span aria-hidden="true" data-armband="V">
          <Armband role="V" name={vice} acting={viceActs} />
        </span>
      )}
    </span>
  );
}

/** "3 to play": how many of the row's picks have not kicked off or are in play. */
function ToPlay({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  return (
    <span
      className="text-xs font-normal text-muted-foreground tabular-nums"
      data-picks-to-play={count}
      title={`${count} of the team's picks still to play`}
    >
      {count} to play
    </span>
  );
}

/** The ranking table: Rank, Display Name, Points and View Team; the visitor's rows highlighted. */
export function LeaderboardTable(props: LeaderboardTableProps) {
  const { rows, currency, showViewTeam, showPrizes, ownTeamIds, onView, label, ranked } = props;
  return (
    <div className="overflow-x-auto rounded-xl border border-border bg-card shadow-sm">
      <table className="w-full text-sm" aria-label={label}>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            <th scope="col" className="w-12 px-3 py-3 sm:w-16 sm:px-4">Rank</th>
            <th scope="col" className="px-3 py-3 sm:px-4">Display Name</th>
            {props.league && (
              <th scope="col" className="hidden w-20 px-4 py-3 text-right sm:table-cell">
                Contest <span className="sr-only">rank</span>
              </th>
            )}
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
            const move = props.moves?.get(row.teamId);
            return (
              <tr
                key={row.id}
                data-team-id={row.teamId}
                data-own={own ? "true" : undefined}
                aria-current={own ? "true" : undefined}
                data-changed={move?.changed ? "" : undefined}
                className={cn(
                  "border-t border-border transition-colors duration-700",
                  own ? "bg-primary/10 font-medium" : "hover:bg-muted/40",
                  move?.changed && "bg-amber-100",
                )}
              >
                <td className="whitespace-nowrap px-3 py-3 font-bold tabular-nums sm:px-4">
                  {ranked ? row.rank : <span aria-label="Not ranked yet">–</span>}
                  {ranked && move && <MoveArrow places={move.places} />}
                </td>
                <td className="px-3 py-3 sm:px-4">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="break-words">{row.displayName}</span>
                    {own && <Badge variant="default">You</Badge>}
                    {prize && <Badge variant="success">{prize}</Badge>}
                    <Captains row={row} />
                    <ToPlay count={row.picksToPlay} />
                    {props.league && ranked && (
                      <span className="w-full text-xs text-muted-foreground sm:hidden">
                        {row.contestRank} in the contest
                      </span>
                    )}
                    {own && !props.league && (
                      <a
                        href={`/leagues/new?team=${encodeURIComponent(row.teamId)}`}
                        className="text-xs font-medium underline underline-offset-2"
                        data-create-league=""
                      >
                        Create a league
                      </a>
                    )}
                  </div>
                </td>
                {props.league && (
                  <td className="hidden px-4 py-3 text-right tabular-nums text-muted-foreground sm:table-cell">
                    {ranked ? row.contestRank : "–"}
                  </td>
                )}
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
