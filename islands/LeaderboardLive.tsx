import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { EventList } from "@/components/EventList.tsx";
import { LeaderboardHeader } from "@/components/LeaderboardHeader.tsx";
import { LeaderboardTable } from "@/components/LeaderboardTable.tsx";
import { Podium } from "@/components/Podium.tsx";
import type { TeamDialogTarget } from "@/components/TeamDialog.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { fetchCompetition, fetchEvents, fetchLeaderboard } from "@/lib/client/live/client.ts";
import type { LeaderboardCompetition, LeaderboardRow, LiveEvent } from "@/lib/domain/live.ts";
import { useLiveSocket } from "@/lib/client/live/use_live_socket.ts";
import { useRankMoves } from "@/lib/client/live/use_rank_moves.ts";
import { formatWhole } from "@/lib/domain/format.ts";
import { useMounted } from "@/lib/client/use_mounted.ts";
import { getUserEntries } from "@/lib/client/user_entries.ts";
import { apiFetch } from "@/lib/client/api.ts";
import type { LeagueRow, LeagueView } from "@/lib/domain/leagues.ts";

/** The team dialog (and the validation of its answer) loads on the first 'View Team'. */
const TeamDialog = lazy(() =>
  import("@/components/TeamDialog.tsx").then((m) => ({ default: m.TeamDialog }))
);

/** Leaderboard and events poll every 10 seconds (here only while the push is down). */
const POLL_MS = 10_000;
/** Rows fetched per page, and the most the page lists (the API's largest page). */
const PAGE_SIZE = 100;
const MAX_ROWS = 500;
/**
 * The league page's window events (lib/client/leagues.ts `LEAGUE_CHANGED`, `LEAGUE_BOARD`),
 * spelled here so the contest's leaderboard ships none of the league page's code.
 */
const LEAGUE_CHANGED = "league-changed";
const LEAGUE_BOARD = "league-board";
/** Bursts of updates (events + hint) collapse into one leaderboard fetch. */
const REFRESH_DEBOUNCE_MS = 150;

export interface LeaderboardLiveProps {
  competition: LeaderboardCompetition;
  /** The first page, rendered by the server. */
  rows: LeaderboardRow[];
  total: number;
  /**
   * When the server read the first page: the time the offline notice names when the page itself
   * came from the browser's cache. Absent: the time the page woke up.
   */
  standingsAt?: string;
  /** Recent events for LIVE and COMPLETED competitions; null otherwise. */
  events: LiveEvent[] | null;
  /** The live feed's own port (LIVE_WS_PORT); null or absent: /ws of the page's host. */
  socketPort?: number | null;
  /** A team whose dialog opens on arrival (a shared team link); ignored before kick-off. */
  openTeam?: TeamDialogTarget | null;
  /** A friends' league: its members only, ranked among themselves, the contest rank beside. */
  league?: { id: string } | null;
}

function EmptyState({ title }: { title: string }) {
  return (
    <div className="rounded-xl border border-dashed border-border p-10 text-center">
      <p className="text-base font-semibold" data-testid="empty-state">{title}</p>
    </div>
  );
}

function emptyText(
  status: string,
  total: number,
  hasScorers: boolean,
  league: boolean,
): string | null {
  // A league shows its members, scored or not: empty only without any.
  if (league) return total === 0 ? "No members yet" : null;
  if ((status === "LIVE" || status === "COMPLETED") && !hasScorers) {
    return "No players have earned points yet.";
  }
  if (total > 0) return null;
  return status === "UPCOMING"
    ? "Competition has not started yet"
    : "No entries in this competition";
}

/** The live leaderboard: push while LIVE, polling as the fallback. */
export default function LeaderboardLive(props: LeaderboardLiveProps) {
  const cid = props.competition.id;
  const leagueId = props.league?.id ?? null;
  const [competition, setCompetition] = useState(props.competition);
  const [rows, setRows] = useState(props.rows);
  const [total, setTotal] = useState(props.total);
  const [events, setEvents] = useState<LiveEvent[] | null>(props.events);
  const [ownRows, setOwnRows] = useState<LeaderboardRow[]>([]);
  const [ownTeamIds, setOwnTeamIds] = useState<ReadonlySet<string>>(new Set());
  const [limit, setLimit] = useState(Math.max(PAGE_SIZE, props.rows.length));
  const hydrated = useMounted();
  const [target, setTarget] = useState<TeamDialogTarget | null>(null);
  const dialogUsed = useRef(false);
  if (target) dialogUsed.current = true;
  const [detailsKey, setDetailsKey] = useState(0);
  const status = competition.status;
  // The standings shown are as of `asOf`; `offline` once a refresh failed or the browser said so,
  // until one succeeds: the header then says the data is stale instead of "Refreshing…".
  const [asOf, setAsOf] = useState(() => props.standingsAt ?? new Date().toISOString());
  const [offline, setOffline] = useState(false);

  const request = useRef({ limit, teamIds: [] as string[] });
  request.current = { limit, teamIds: [...ownTeamIds] };

  const refreshBoard = useCallback(async () => {
    const { limit, teamIds } = request.current;
    try {
      if (leagueId) {
        const [board, next] = await Promise.all([
          apiFetch<{ league: LeagueView; rows: LeagueRow[]; total: number }>(
            `/api/leagues/${encodeURIComponent(leagueId)}`,
          ),
          fetchCompetition(cid),
        ]);
        setRows(board.rows);
        setTotal(board.total);
        setCompetition(next);
        setAsOf(new Date().toISOString());
        setOffline(false);
        dispatchEvent(new CustomEvent(LEAGUE_BOARD, { detail: board }));
        return;
      }
      const [page, next] = await Promise.all([
        fetchLeaderboard(cid, { limit, teamIds }),
        fetchCompetition(cid),
      ]);
      setRows(page.rows);
      setOwnRows(page.own);
      setTotal(page.total);
      setCompetition(next);
      setAsOf(new Date().toISOString());
      setOffline(false);
    } catch {
      // Keep what is shown, marked stale; the next update or poll tries again.
      setOffline(true);
    }
  }, [cid, leagueId]);

  useEffect(() => {
    const down = () => setOffline(true);
    if (!navigator.onLine) down();
    addEventListener("offline", down);
    addEventListener("online", refreshBoard);
    return () => {
      removeEventListener("offline", down);
      removeEventListener("online", refreshBoard);
    };
  }, [refreshBoard]);

  useEffect(() => {
    if (!leagueId) return;
    addEventListener(LEAGUE_CHANGED, refreshBoard);
    return () => removeEventListener(LEAGUE_CHANGED, refreshBoard);
  }, [leagueId, refreshBoard]);

  const refreshEvents = useCallback(async () => {
    try {
      setEvents(await fetchEvents(cid));
    } catch {
      // As above.
    }
  }, [cid]);

  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scheduleBoard = useCallback(() => {
    clearTimeout(debounce.current);
    debounce.current = setTimeout(refreshBoard, REFRESH_DEBOUNCE_MS);
  }, [refreshBoard]);
  useEffect(() => () => clearTimeout(debounce.current), []);

  const pushUp = useLiveSocket(cid, status === "LIVE", {
    onEvents(next) {
      setEvents(next);
      setDetailsKey((k) => k + 1);
      scheduleBoard();
    },
    onLeaderboard() {
      setDetailsKey((k) => k + 1);
      scheduleBoard();
    },
  }, props.socketPort ?? null);

  useEffect(() => {
    // Opened once hydrated: the dialog is a lazily loaded chunk the server does not render.
    if (props.openTeam && props.competition.status !== "UPCOMING") setTarget(props.openTeam);
  }, []);

  useEffect(() => {
    const mine = getUserEntries().filter((e) => e.competitionId === cid).map((e) => e.teamId);
    setOwnTeamIds(new Set(mine));
  }, [cid]);

  useEffect(() => {
    if (leagueId) return;
    const onPage = new Set(rows.map((row) => row.teamId));
    if ([...ownTeamIds].some((teamId) => !onPage.has(teamId))) refreshBoard();
  }, [ownTeamIds]);

  useEffect(() => {
    if (limit > rows.length) refreshBoard();
  }, [limit]);

  useEffect(() => {
    if (!(status === "LIVE" || status === "UPCOMING") || pushUp) return;
    const timer = setInterval(refreshBoard, POLL_MS);
    return () => clearInterval(timer);
  }, [status, pushUp, refreshBoard]);

  useEffect(() => {
    if (status === "UPCOMING") return;
    if (events === null) refreshEvents();
    if (status !== "LIVE" || pushUp) return;
    const timer = setInterval(refreshEvents, POLL_MS);
    return () => clearInterval(timer);
  }, [status, pushUp, refreshEvents]);

  const hasScorers = rows.length > 0 && rows[0].points > 0;
  const empty = emptyText(status, total, hasScorers, leagueId !== null);
  const showEvents = status === "LIVE" || status === "COMPLETED";
  const showPrizes = status === "COMPLETED";
  const ownOnPage = useMemo(() => rows.filter((row) => ownTeamIds.has(row.teamId)), [
    rows,
    ownTeamIds,
  ]);
  const yours = empty ? [...ownOnPage, ...ownRows] : ownRows;
  const moves = useRankMoves(rows);
  const lastEventMinute = events?.reduce<number | null>(
    (max, e) => e.minute !== null && (max === null || e.minute > max) ? e.minute : max,
    null,
  ) ?? null;
  const tableProps = {
    ranked: status !== "UPCOMING",
    moves,
    currency: competition.currency,
    showViewTeam: status !== "UPCOMING",
    showPrizes,
    ownTeamIds,
    league: leagueId !== null,
    onView: (row: LeaderboardRow) => setTarget({ id: row.teamId, displayName: row.displayName }),
  };

  return (
    <div className="grid gap-6">
      <LeaderboardHeader
        competition={competition}
        total={total}
        pushConnected={status === "LIVE" && hydrated ? pushUp : null}
        lastEventMinute={lastEventMinute}
        staleAsOf={hydrated && offline ? asOf : null}
      />
      <div className={showEvents ? "grid gap-6 lg:grid-cols-3 lg:items-start" : "grid gap-6"}>
        <div className="grid min-w-0 gap-6 lg:col-span-2">
          <Podium
            rows={rows}
            currency={competition.currency}
            showPrizes={showPrizes}
            ownTeamIds={ownTeamIds}
          />
          {empty ? <EmptyState title={empty} /> : (
            <LeaderboardTable
              {...tableProps}
              rows={rows}
              label={leagueId ? "League leaderboard" : "Leaderboard"}
            />
          )}
          {!empty && rows.length < total && (
            <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
              <span>Showing the top {rows.length} of {formatWhole(total)} entries</span>
              {rows.length < MAX_ROWS && (
                <Button
                  variant="outline"
                  onClick={() => setLimit(rows.length + PAGE_SIZE)}
                >
                  Show more
                </Button>
              )}
            </div>
          )}
          {yours.length > 0 && (
            <section aria-labelledby="your-entries" className="grid gap-3">
              <h2 id="your-entries" className="text-lg font-semibold">Your entries</h2>
              <LeaderboardTable {...tableProps} rows={yours} label="Your entries" />
            </section>
          )}
        </div>
        {showEvents && <EventList events={events ?? []} localTimes={hydrated} />}
      </div>
      {dialogUsed.current && (
        <Suspense fallback={null}>
          <TeamDialog target={target} refreshKey={detailsKey} onClose={() => setTarget(null)} />
        </Suspense>
      )}
    </div>
  );
}
