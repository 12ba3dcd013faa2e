import { useCallback, useMemo, useState } from "react";
import type { Position } from "@/lib/domain/types.ts";
import { formatWhen, searchText } from "@/lib/domain/format.ts";
import {
  type BuilderFixture,
  fixtureOfClub,
  fixtureText,
  opponentText,
} from "@/lib/domain/live.ts";
import { useMounted } from "@/lib/client/use_mounted.ts";
import { PlayerCard } from "./PlayerCard.tsx";
import type { PickPlayer } from "@/lib/client/players.ts";
import { cn } from "@/lib/client/cn.ts";
import { Input } from "@/components/ui/Input.tsx";
import { Select } from "@/components/ui/Select.tsx";
import { Skeleton } from "@/components/ui/Skeleton.tsx";
import { PlayerRow } from "./PlayerRow.tsx";

type PositionFilter = "ALL" | Position;

const POSITION_FILTERS: { code: PositionFilter; label: string }[] = [
  { code: "ALL", label: "All Players" },
  { code: "GK", label: "Goalkeepers" },
  { code: "DEF", label: "Defenders" },
  { code: "MID", label: "Midfielders" },
  { code: "FWD", label: "Forwards" },
];

export interface PlayerBrowserProps {
  /** Sorted by salary descending; null while loading. */
  players: PickPlayer[] | null;
  selectedIds: ReadonlySet<number>;
  /** The competition's currency: salaries are shown in it. */
  currency: string;
  /** Why no team can be built yet (the competition lacks players), shown when the list is empty. */
  missing?: string | null;
  onToggle: (player: PickPlayer) => void;
  /** The competition's match: each row names its opponent and the kick-off. */
  fixture?: BuilderFixture | null;
  /** The submit button's words, which the skip link names ("Save Changes" on the edit page). */
  submitLabel?: string;
  /** A round's matches: each row names its fixture and kick-off, and a filter picks a match. */
  fixtures?: BuilderFixture[] | null;
  /** Players whose match kicked off (late swap): shown with a padlock, not pickable. */
  lockedIds?: ReadonlySet<number> | null;
}

interface Indexed {
  player: PickPlayer;
  text: string;
}

/** Position, team and text filters over the player list. */
export function PlayerBrowser(
  {
    players,
    selectedIds,
    currency,
    missing,
    onToggle,
    fixture = null,
    submitLabel = "Submit Team",
    fixtures = null,
    lockedIds = null,
  }: PlayerBrowserProps,
) {
  const [card, setCard] = useState<PickPlayer | null>(null);
  const onInfo = useCallback((player: PickPlayer) => setCard(player), []);
  // Times in the visitor's zone once in the browser; the server names the zone it used.
  const local = useMounted();
  const kickoff = fixture ? formatWhen(fixture.kickoffTime, local ? undefined : "UTC") : "";
  const zone = local ? undefined : "UTC";
  /** The row's fixture words and kick-off: the opponent in a match, the fixture in a round. */
  const gameOf = (clubId: number): { opponent: string | null; kickoff: string } => {
    if (!fixtures) return { opponent: opponentText(fixture, clubId), kickoff };
    const f = fixtureOfClub(fixtures, clubId);
    return f
      ? { opponent: fixtureText(f), kickoff: formatWhen(f.kickoffTime, zone) }
      : { opponent: null, kickoff: "" };
  };
  const fixtureOf = (clubId: number) => {
    const { opponent, kickoff } = gameOf(clubId);
    return opponent && `${opponent} ${kickoff}`.trim();
  };
  const [matchId, setMatchId] = useState("ALL");
  const [position, setPosition] = useState<PositionFilter>("ALL");
  const [team, setTeam] = useState("ALL");
  const [query, setQuery] = useState("");

  const indexed = useMemo<Indexed[]>(
    () =>
      (players ?? []).map((player) => ({
        player,
        text: searchText(`${player.name} ${player.teamName} ${player.teamShortName}`),
      })),
    [players],
  );
  const teamNames = useMemo(
    () => [...new Set(indexed.map((i) => i.player.teamName).filter(Boolean))].sort(),
    [indexed],
  );
  const visible = useMemo(() => {
    const needle = searchText(query.trim());
    const ids = new Set<number>();
    for (const { player, text } of indexed) {
      if (position !== "ALL" && player.position !== position) continue;
      if (team !== "ALL" && player.teamName !== team) continue;
      if (
        matchId !== "ALL" && String(fixtureOfClub(fixtures, player.teamId)?.matchId) !== matchId
      ) {
        continue;
      }
      if (needle && !text.includes(needle)) continue;
      ids.add(player.id);
    }
    return ids;
  }, [indexed, position, team, query, matchId, fixtures]);

  return (
    <section
      aria-labelledby="players-title"
      className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5"
    >
      <h2 id="players-title" className="text-lg font-semibold">Players</h2>
      <div className="mt-3 flex flex-wrap gap-1.5" role="group" aria-label="Filter by position">
        {POSITION_FILTERS.map((f) => (
          <button
            key={f.code}
            type="button"
            aria-pressed={position === f.code}
            data-position-filter={f.code}
            onClick={() => setPosition(f.code)}
            className={cn(
              "rounded-full border px-3 py-1.5 text-sm font-medium transition-colors",
              "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
              position === f.code
                ? "border-primary bg-primary text-primary-foreground"
                : "border-border bg-background hover:bg-muted",
            )}
          >
            {f.label}
          </button>
        ))}
      </div>
      <div className={cn("mt-3 grid gap-2", fixtures ? "sm:grid-cols-3" : "sm:grid-cols-2")}>
        <Input
          type="search"
          placeholder="Search players"
          aria-label="Search players"
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        <Select
          aria-label="Filter by team"
          value={team}
          onChange={(e) => setTeam(e.currentTarget.value)}
        >
          <option value="ALL">All Teams</option>
          {teamNames.map((name) => <option key={name} value={name}>{name}</option>)}
        </Select>
        {fixtures && (
          <Select
            aria-label="Filter by match"
            value={matchId}
            data-match-filter=""
            onChange={(e) => setMatchId(e.currentTarget.value)}
          >
            <option value="ALL">All Matches</option>
            {fixtures.map((f) => (
              <option key={f.matchId} value={String(f.matchId)}>
                {fixtureText(f)} · {formatWhen(f.kickoffTime, zone)}
              </option>
            ))}
          </Select>
        )}
      </div>
      {players === null
        ? (
          <div className="mt-4 grid gap-2" aria-busy="true" aria-label="Loading players">
            {[0, 1, 2, 3, 4].map((i) => <Skeleton key={i} className="h-14 w-full" />)}
          </div>
        )
        : (
          <>
            <a
              href="#submit-bar"
              className="sr-only focus:not-sr-only focus:mt-3 focus:inline-block focus:rounded-md focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:outline-none focus:ring-2 focus:ring-ring"
              data-skip-players=""
            >
              Skip the player list to {submitLabel}
            </a>
            <ul className="mt-4 grid grid-cols-1 gap-1" aria-label="Player list">
              {indexed.map(({ player }) => (
                <PlayerRow
                  key={player.id}
                  player={player}
                  selected={selectedIds.has(player.id)}
                  hidden={!visible.has(player.id)}
                  currency={currency}
                  {...gameOf(player.teamId)}
                  locked={lockedIds?.has(player.id) ?? false}
                  onToggle={onToggle}
                  onInfo={onInfo}
                />
              ))}
            </ul>
            {visible.size === 0 && (
              <div
                className="mt-4 rounded-lg border border-dashed border-border p-8 text-center"
                role="status"
              >
                {players.length === 0
                  ? (
                    <>
                      <p className="font-semibold">No players in this contest yet</p>
                      <p className="mt-1 text-sm text-muted-foreground" data-missing="">
                        {missing ?? "No players have been added yet."}
                      </p>
                    </>
                  )
                  : (
                    <>
                      <p className="font-semibold">No players found</p>
                      <p className="mt-1 text-sm text-muted-foreground">
                        Try adjusting your search or filters
                      </p>
                    </>
                  )}
              </div>
            )}
          </>
        )}
      <PlayerCard
        player={card}
        currency={currency}
        fixture={card && fixtureOf(card.teamId)}
        selected={card !== null && selectedIds.has(card.id)}
        onToggle={onToggle}
        onClose={() => setCard(null)}
      />
    </section>
  );
}
