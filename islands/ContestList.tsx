import { useEffect, useState } from "react";
import type { Competition } from "@/lib/domain/types.ts";
import {
  ContestCard,
  type ContestCardData,
  ContestCardSkeleton,
} from "@/components/ContestCard.tsx";
import { apiFetch } from "@/lib/client/api.ts";
import { track } from "@/lib/client/analytics.ts";
import { type ContestTab, contestTab, sortByDeadline } from "@/lib/client/contests.ts";
import { Tabs } from "@/components/ui/Tabs.tsx";

/** The contest list refreshes every 15 seconds. */
const REFRESH_MS = 15_000;

export interface ContestListProps {
  /** Server-rendered list (already sorted); null makes the island load it itself. */
  initial: ContestCardData[] | null;
  /** ISO time of the server render, so the first client render matches it. */
  renderedAt: string;
  /** The tab the address asked for (`?tab=live`); null: the first one with a contest. */
  tab?: ContestTab | null;
}

function onSelect(id: number) {
  track("select_competition", { competitionId: id });
}

/** The home page's address that opens `tab`. */
function hrefOf(tab: string): string {
  return tab === "open" ? "/" : `/?tab=${tab}`;
}

const TABS: { value: ContestTab; label: string; empty: string }[] = [
  { value: "open", label: "Open", empty: "No contest is open for entries right now." },
  {
    value: "closed",
    label: "Closed",
    empty: "No contest is waiting to start: full ones and those past their deadline show here.",
  },
  { value: "live", label: "Live", empty: "No contest is being played right now." },
  { value: "results", label: "Results", empty: "No finished contest yet." },
];

/**
 * The home page's contests in Open / Closed / Live / Results tabs, each in deadline order
 * (results newest first): Open holds only contests a visitor can enter now, Closed the UPCOMING
 * ones past their deadline or full (each card says which): server-rendered, then refreshed from the API every 15 s. The first tab with a
 * contest is shown first; `?tab=live` (or `#live`) in the address opens that tab. Each tab is a
 * link to its address, so every panel can be reached without JavaScript.
 */
export default function ContestList({ initial, renderedAt, tab }: ContestListProps) {
  const [competitions, setCompetitions] = useState<ContestCardData[] | null>(initial);
  const [now, setNow] = useState(() => new Date(renderedAt));

  useEffect(() => {
    let alive = true;
    const refresh = async () => {
      try {
        const list = await apiFetch<Competition[]>("/api/competitions");
        if (alive) setCompetitions(sortByDeadline(list));
      } catch {
        // Keep what is shown; the next tick tries again.
      }
      if (alive) setNow(new Date());
    };
    if (initial === null) refresh();
    else setNow(new Date());
    const timer = setInterval(refresh, REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, []);

  if (competitions === null) {
    return (
      <div
        className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
        aria-busy="true"
        aria-label="Loading"
      >
        <ContestCardSkeleton />
        <ContestCardSkeleton />
        <ContestCardSkeleton />
      </div>
    );
  }

  if (competitions.length === 0) {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-2 rounded-xl border border-dashed border-border p-10 text-center">
        <svg
          viewBox="0 0 24 24"
          width="40"
          height="40"
          aria-hidden="true"
          className="text-muted-foreground"
        >
          <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="m12 7 4 3-1.5 4.5h-5L8 10z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          />
        </svg>
        <p className="text-lg font-semibold">No competitions available.</p>
        <p className="text-sm text-muted-foreground">Check back later for upcoming competitions.</p>
      </div>
    );
  }

  return <ContestTabs competitions={competitions} now={now} asked={tab ?? null} />;
}

/** A tab name from an address (`?tab=` or `#`), or null. */
export function tabOf(value: string | null | undefined): ContestTab | null {
  return TABS.find((t) => t.value === value)?.value ?? null;
}

function ContestTabs(
  { competitions, now, asked }: {
    competitions: ContestCardData[];
    now: Date;
    asked: ContestTab | null;
  },
) {
  const groups = new Map<ContestTab, ContestCardData[]>(TABS.map((t) => [t.value, []]));
  for (const c of competitions) groups.get(contestTab(c, now.getTime()))!.push(c);
  groups.get("results")!.reverse();
  const first = TABS.find((t) => groups.get(t.value)!.length > 0)?.value ?? "open";
  const live = groups.get("live")!.length;
  const [tab, setTab] = useState<ContestTab | null>(asked);

  useEffect(() => {
    const fromHash = tabOf(location.hash.slice(1));
    if (fromHash) setTab(fromHash);
  }, []);

  const select = (value: string) => {
    setTab(value as ContestTab);
    history.replaceState(null, "", hrefOf(value));
  };

  return (
    <Tabs
      label="Contests by status"
      value={tab ?? first}
      onValueChange={select}
      hrefOf={hrefOf}
      items={TABS.map(({ value, label, empty }) => {
        const list = groups.get(value)!;
        // Live contests are where the action is: the other tabs point at them.
        const liveNote = value !== "live" && live > 0 && (
          <a
            href={hrefOf("live")}
            onClick={(e) => {
              e.preventDefault();
              select("live");
            }}
            className="mb-4 flex items-center gap-2 rounded-lg border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm font-medium hover:bg-destructive/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-live-note=""
          >
            <span className="h-2 w-2 shrink-0 rounded-full bg-destructive" aria-hidden="true" />
            {live === 1 ? "1 contest is live now" : `${live} contests are live now`}
            <span className="ml-auto whitespace-nowrap">Follow live →</span>
          </a>
        );
        return {
          value,
          label: `${label} (${list.length})`,
          content: list.length === 0
            ? (
              <>
                {liveNote}
                <p className="py-10 text-center text-muted-foreground" data-empty-tab="">{empty}</p>
              </>
            )
            : (
              <>
                {liveNote}
                <ul
                  className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
                  aria-label={`${label} contests`}
                >
                  {list.map((c) => (
                    <li key={c.id} className="flex">
                      <ContestCard competition={c} now={now} onSelect={onSelect} />
                    </li>
                  ))}
                </ul>
              </>
            ),
        };
      })}
    />
  );
}
