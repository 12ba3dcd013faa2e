import { memo } from "react";
import { formatSalary } from "@/lib/domain/format.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { cn } from "@/lib/client/cn.ts";
import { PlayerAvatar } from "@/components/PlayerAvatar.tsx";
import { PositionBadge } from "./PositionBadge.tsx";

export interface PlayerRowProps {
  player: PickPlayer;
  selected: boolean;
  /** Filtered out: kept in the DOM, hidden, so filtering only flips attributes. */
  hidden: boolean;
  /** The competition's currency: the salary is shown in it. */
  currency: string;
  onToggle: (player: PickPlayer) => void;
}

/** Off-screen rows skip layout and paint, so showing all 300 again stays cheap. */
const ROW_STYLE = { contentVisibility: "auto", containIntrinsicSize: "auto 58px" };

type RowButtonProps = Omit<PlayerRowProps, "hidden">;

/** The row's content; memoised apart from the <li> so filtering never re-renders it. */
const RowButton = memo(function RowButton(
  { player, selected, currency, onToggle }: RowButtonProps,
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
        </span>
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
export const PlayerRow = memo(function PlayerRow({ hidden, ...rest }: PlayerRowProps) {
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
      <RowButton {...rest} />
    </li>
  );
});
