import { memo } from "react";
import { formatSalary } from "@/lib/domain/format.ts";
import { seasonPoints } from "@/lib/domain/scoring.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { cn } from "@/lib/client/cn.ts";
import { formatPoints } from "@/lib/client/live/format.ts";
import { PlayerAvatar } from "@/components/PlayerAvatar.tsx";
import { PositionBadge } from "./PositionBadge.tsx";

export interface PlayerRowProps {
  player: PickPlayer;
  selected: boolean;
  /** Filtered out: kept in the DOM, hidden, so filtering only flips attributes. */
  hidden: boolean;
  /** The competition's currency: the salary is shown in it. */
  currency: string;
  /** "v CHE (H)" with the kick-off, when the player's club is in the competition's match. */
  fixture: string | null;
  onToggle: (player: PickPlayer) => void;
  /** Opens the player's card. */
  onInfo: (player: PickPlayer) => void;
}

/** Off-screen rows skip layout and paint, so showing all 300 again stays cheap. */
const ROW_STYLE = { contentVisibility: "auto", containIntrinsicSize: "auto 74px" };

/** "16 pts · 2 G · 1 A · 3 CS": the season so far. */
export function seasonLine(player: PickPlayer): string {
  const season = player.season ?? { goals: 0, assists: 0, cleanSheets: 0 };
  const points = seasonPoints(player.position, season).totalPoints;
  return `${
    formatPoints(points)
  } pts · ${season.goals} G · ${season.assists} A · ${season.cleanSheets} CS`;
}

type RowButtonProps = Omit<PlayerRowProps, "hidden" | "onInfo">;

/** The row's content; memoised apart from the <li> so filtering never re-renders it. */
const RowButton = memo(function RowButton(
  { player, selected, currency, fixture, onToggle }: RowButtonProps,
) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={() => onToggle(player)}
      className={cn(
        "player-row",
        selected
          ? "border-primary bg-primary/5"
          : "border-transparent hover:border-border hover:bg-muted/60",
      )}
    >
      <PlayerAvatar name={player.name} src={player.crest} />
      <span className="min-w-0 flex-1">
        <span className="player-name" title={player.name}>
          {player.name}
        </span>
        <span className="player-meta">
          <span className="sm:hidden">
            <PositionBadge position={player.position} />
          </span>
          <span className="truncate">{player.teamName}</span>
          {fixture && <span className="shrink-0" data-fixture="">· {fixture}</span>}
        </span>
        <span className="player-stats" data-season="">{seasonLine(player)}</span>
      </span>
      <span className="hidden sm:block">
        <PositionBadge position={player.position} />
      </span>
      <span className="player-salary">
        {formatSalary(player.salary, currency)}
      </span>
      <span
        aria-hidden="true"
        className={cn(
          "pick-mark",
          selected
            ? "border-primary bg-primary text-primary-foreground"
            : "border-border text-muted-foreground",
        )}
      >
        {selected ? "✓" : "+"}
      </span>
    </button>
  );
});

/** One player of the list; a filter change only flips its `hidden` attribute. */
export const PlayerRow = memo(function PlayerRow({ hidden, onInfo, ...rest }: PlayerRowProps) {
  const { player } = rest;
  return (
    <li
      hidden={hidden}
      data-player-id={player.id}
      data-position={player.position}
      data-team-id={player.teamId}
      data-salary={player.salary}
      style={ROW_STYLE}
    >
      <div className="player-line">
        <RowButton {...rest} />
        <button
          type="button"
          className="player-info"
          aria-label={`About ${player.name}`}
          aria-haspopup="dialog"
          onClick={() => onInfo(player)}
          data-player-info=""
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M12 11v6M12 7.5v.5" stroke="currentColor" strokeWidth="2.2" />
          </svg>
        </button>
      </div>
    </li>
  );
});
