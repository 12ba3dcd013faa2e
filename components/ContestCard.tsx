import type { Competition } from "@/lib/domain/types.ts";
import { closesIn, formatPrice, leagueLabel, prizeText } from "@/lib/domain/format.ts";
import { closedForEntries } from "@/lib/client/contests.ts";
import { isGrowingPool, shownPrizePool } from "@/lib/domain/formats.ts";
import { Badge } from "./ui/Badge.tsx";
import { Button } from "./ui/Button.tsx";
import { Card } from "./ui/Card.tsx";
import { Skeleton } from "./ui/Skeleton.tsx";
import { LocalTime } from "./LocalTime.tsx";

/** The fields a card reads. */
const CARD_FIELDS = [
  "id",
  "name",
  "description",
  "league",
  "entryFee",
  "prizePool",
  "prizeType",
  "customPrizeDescription",
  "currency",
  "deadline",
  "status",
  "maxEntries",
  "currentEntries",
  "cancelReason",
  "format",
] as const satisfies readonly (keyof Competition)[];

export type ContestCardData = Pick<Competition, typeof CARD_FIELDS[number]>;

/** The fields a card reads, and nothing more (the island's props are sent in the page). */
export function toCardData(c: ContestCardData): ContestCardData {
  return Object.fromEntries(CARD_FIELDS.map((field) => [field, c[field]])) as ContestCardData;
}

export interface ContestCardProps {
  competition: ContestCardData;
  /** The moment the closing text is computed for. */
  now: Date;
  /** Called before the browser follows 'Make Picks' or the card link to team selection. */
  onSelect?: (id: number) => void;
}

/** The prize as shown: a growing pool as it stands with the entries so far. */
function cardPrize(c: ContestCardData): string {
  return prizeText({ ...c, prizePool: shownPrizePool(c) });
}

/** Money reads big; a long non-cash description reads as a sentence. */
function prizeClass(c: ContestCardData): string {
  return cardPrize(c).length > 16 ? "text-base font-bold leading-snug" : "text-xl font-bold";
}

function entriesText(c: ContestCardData): string {
  return c.maxEntries ? `${c.currentEntries} / ${c.maxEntries}` : String(c.currentEntries);
}

function Stat(props: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
        {props.label}
      </dt>
      <dd className="truncate font-semibold">{props.value}</dd>
    </div>
  );
}

function ClockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className="shrink-0">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 7v5l3 2" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/**
 * A contest card. The title link covers the whole card: LIVE cards open the
 * leaderboard, the others team selection; the buttons sit above that link.
 */
export function ContestCard({ competition: c, now, onSelect }: ContestCardProps) {
  const live = c.status === "LIVE";
  const closed = live ? null : closedForEntries(c, now.getTime());
  const picksHref = `/team-selection/${c.id}`;
  const leaderboardHref = `/leaderboard/${c.id}`;
  const select = () => onSelect?.(c.id);
  return (
    <Card
      className="group relative flex w-full flex-col overflow-hidden transition-shadow hover:shadow-md"
      data-contest-card={String(c.id)}
    >
      <div className={live ? "h-1.5 bg-destructive" : "h-1.5 bg-primary"} aria-hidden="true" />
      <div className="flex flex-1 flex-col gap-4 p-5">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="text-xs font-medium text-muted-foreground">{leagueLabel(c.league)}</p>
            <h2 className="mt-1 text-lg font-semibold leading-tight tracking-tight">
              <a
                href={live || closed ? leaderboardHref : picksHref}
                onClick={live || closed ? undefined : select}
                className="after:absolute after:inset-0 after:rounded-xl after:content-[''] focus:outline-none focus-visible:after:ring-2 focus-visible:after:ring-inset focus-visible:after:ring-ring"
              >
                {c.name}
              </a>
            </h2>
          </div>
          {live && <Badge variant="live">LIVE</Badge>}
          {c.status === "COMPLETED" && <Badge variant="secondary">Completed</Badge>}
          {c.status === "CANCELLED" && <Badge variant="destructive">Cancelled</Badge>}
        </div>
        {c.description && (
          <p className="text-sm text-muted-foreground">
            {c.description}
          </p>
        )}
        <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted/60 p-3 text-sm">
          <div className="col-span-2 min-w-0">
            <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
              Prize
            </dt>
            <dd className={prizeClass(c)} data-prize="">
              {cardPrize(c)}
            </dd>
            {isGrowingPool(c) && (
              <dd className="text-xs text-muted-foreground" data-growing-pool="">
                Grows with every entry · fixed at the deadline
              </dd>
            )}
          </div>
          <Stat label="Entry fee" value={formatPrice(c.entryFee, c.currency)} />
          <Stat label="Entries" value={entriesText(c)} />
        </dl>
        <p
          className={live
            ? "flex items-center gap-1.5 text-sm font-semibold text-destructive"
            : "flex items-center gap-1.5 text-sm text-muted-foreground"}
          data-closing=""
        >
          <ClockIcon />
          <span>
            {live ? "In progress" : closed ?? closesIn(c.deadline, now)}
            {!live && !closed && c.deadline && new Date(c.deadline).getTime() > now.getTime() && (
              <>
                {" · "}
                <LocalTime iso={c.deadline} />
              </>
            )}
          </span>
        </p>
        <div className="relative z-10 mt-auto flex flex-wrap gap-2">
          {!live && !closed && (
            <Button href={picksHref} onClick={select} className="flex-1">
              Make Picks
            </Button>
          )}
          <Button href={leaderboardHref} variant="outline" className="flex-1">
            {live ? "View Live Leaderboard" : "Leaderboard"}
          </Button>
        </div>
      </div>
    </Card>
  );
}

/** The placeholder card shown while the list loads on the client. */
export function ContestCardSkeleton() {
  return (
    <div className="rounded-xl border border-border bg-card p-5 shadow-sm" data-skeleton-card="">
      <div className="grid gap-4">
        <Skeleton className="h-3 w-24" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-16 w-full rounded-lg" />
        <Skeleton className="h-10 w-full" />
      </div>
    </div>
  );
}
