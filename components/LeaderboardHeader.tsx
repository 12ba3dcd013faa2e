import { useEffect, useState } from "react";
import { Badge } from "./ui/Badge.tsx";
import { formatWhole, prizeText } from "@/lib/domain/format.ts";
import { LocalTime } from "./LocalTime.tsx";
import { cn } from "@/lib/client/cn.ts";
import type { CompetitionStatus } from "@/lib/domain/types.ts";
import { type Fixture, type LeaderboardCompetition, matchMinute } from "@/lib/domain/live.ts";
import { closedForEntries } from "@/lib/client/contests.ts";
import { multiplierText } from "@/lib/domain/captain.ts";

/** The status text: LIVE, COMPLETED or Upcoming (and CANCELLED). */
function statusText(status: CompetitionStatus): string {
  if (status === "LIVE") return "LIVE";
  if (status === "COMPLETED") return "COMPLETED";
  if (status === "CANCELLED") return "CANCELLED";
  return "Upcoming";
}

/**
 * Beside the score: "Postponed" when called off, "Full time" once the match or the competition
 * is over, "In play" while the match is on; nothing before kick-off.
 */
function matchState(fixture: Fixture, status: CompetitionStatus): string | null {
  if (fixture.status === "POSTPONED") return "Postponed";
  if (fixture.status === "COMPLETED" || status === "COMPLETED") return "Full time";
  if (fixture.status === "LIVE" && status !== "CANCELLED") return "In play";
  return null;
}

/** The match clock, ticking every 15 seconds once the page runs in the browser. */
function useMatchMinute(fixture: Fixture, lastEventMinute: number | null, on: boolean) {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    if (!on) return;
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 15_000);
    return () => clearInterval(timer);
  }, [on]);
  return on && now ? matchMinute(fixture.kickoffTime, now, lastEventMinute) : null;
}

interface FixtureLineProps {
  fixture: Fixture;
  status: CompetitionStatus;
  lastEventMinute: number | null;
}

/** The match: "Home 2 – 1 Away" once a score is known, else "Home vs Away" (a bare "v" in the dark badge read as a vice-captain mark); the minute in play. */
function FixtureLine({ fixture, status, lastEventMinute }: FixtureLineProps) {
  const state = matchState(fixture, status);
  const minute = useMatchMinute(fixture, lastEventMinute, state === "In play");
  const scored = fixture.homeScore !== null && fixture.awayScore !== null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base font-semibold sm:text-lg"
      data-testid="fixture"
    >
      <span>{fixture.homeTeam.name}</span>
      <span
        className="rounded-md bg-foreground px-2 py-0.5 font-mono text-background tabular-nums"
        data-testid="score"
      >
        {scored ? `${fixture.homeScore} – ${fixture.awayScore}` : "vs"}
      </span>
      <span>{fixture.awayTeam.name}</span>
      {state && (
        <span
          className={cn(
            "text-xs font-medium uppercase",
            state === "In play" ? "text-destructive" : "text-muted-foreground",
          )}
          data-testid="match-state"
        >
          {state}
          {minute && <span data-testid="match-minute">{` · ${minute}`}</span>}
        </span>
      )}
    </p>
  );
}

export interface LeaderboardHeaderProps {
  competition: LeaderboardCompetition;
  total: number;
  /** null: no live push for this status; true/false: the socket is up or reconnecting. */
  pushConnected: boolean | null;
  /** The minute of the latest game event, which moves the match clock on. */
  lastEventMinute?: number | null;
  /** Set while offline: the time of the standings shown, which may be out of date. */
  staleAsOf?: string | null;
}

interface StatProps {
  label: string;
  value: string;
  testId: string;
  className?: string;
}

function Stat({ label, value, testId, className }: StatProps) {
  return (
    <div className={cn("min-w-0 rounded-lg bg-muted/60 px-3 py-2 sm:px-4 sm:py-3", className)}>
      <dt className="text-[11px] font-medium uppercase tracking-wide text-muted-foreground sm:text-xs">
        {label}
      </dt>
      <dd
        className="mt-1 break-words text-base font-bold tabular-nums sm:text-lg"
        data-testid={testId}
      >
        {value}
      </dd>
    </div>
  );
}

/** Leaderboard header: name, LIVE badge, status text, total entries and prize. */
export function LeaderboardHeader(
  { competition, total, pushConnected, lastEventMinute = null, staleAsOf = null }:
    LeaderboardHeaderProps,
) {
  const live = competition.status === "LIVE";
  return (
    <header className="grid gap-4 rounded-xl border border-border bg-card p-5 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{competition.name}</h1>
        {live && <Badge variant="live">LIVE</Badge>}
        {pushConnected !== null && staleAsOf === null && (
          <span className="text-xs text-muted-foreground" aria-live="polite">
            {pushConnected ? "Live updates on" : "Refreshing every 10 seconds"}
          </span>
        )}
      </div>
      {staleAsOf !== null && (
        <p
          role="status"
          className="rounded-lg border border-border bg-muted px-3 py-2 text-sm"
          data-testid="stale-standings"
        >
          <strong className="font-semibold">You are offline.</strong> These standings are from{" "}
          <LocalTime iso={staleAsOf} /> and may have changed; they update when you are back online.
        </p>
      )}
      {competition.fixture && (
        <FixtureLine
          fixture={competition.fixture}
          status={competition.status}
          lastEventMinute={lastEventMinute}
        />
      )}
      {competition.status === "CANCELLED" && (
        <p
          role="status"
          className="rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm"
          data-testid="cancelled"
        >
          {closedForEntries({ ...competition, deadline: null }, 0)}
        </p>
      )}
      {competition.captainMultiplier && (
        <p className="text-sm text-muted-foreground" data-testid="captains">
          Captains (C) score {multiplierText(competition.captainMultiplier)}{" "}
          from kick-off; the vice-captain (V) takes over only if the captain's match ends without
          him playing. Each row marks its team's two from kick-off, the acting one filled.
        </p>
      )}
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3">
        <Stat label="Status" value={statusText(competition.status)} testId="status" />
        <Stat label="Entries" value={formatWhole(total)} testId="total" />
        <Stat
          label="Prize"
          value={prizeText(competition)}
          testId="prize"
          className="col-span-2 sm:col-span-1"
        />
      </dl>
    </header>
  );
}
