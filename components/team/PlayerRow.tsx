import { memo } from "react";
import { formatWhole } from "../../lib/domain/format.ts";
import type { PickPlayer } from "../../lib/ui/players.ts";
import { cn } from "../../lib/ui/cn.ts";
import { PlayerAvatar } from "../PlayerAvatar.tsx";
import { PositionBadge } from "./PositionBadge.tsx";

export interface PlayerRowProps {
  player: PickPlayer;
  selected: boolean;
  /** Filtered out: kept in the DOM, hidden, so filtering only flips attributes. */
  hidden: boolean;
  onToggle: (player: PickPlayer) => void;
}

function PlayerRowView({ player, selected, hidden, onToggle }: PlayerRowProps) {
  return (
    <li hidden={hidden} data-player-id={player.id}>
      <button
        type="button"
        aria-pressed={selected}
        onClick={() => onToggle(player)}
        class={cn(
          "flex w-full items-center gap-3 rounded-lg border px-3 py-2.5 text-left transition-colors",
          "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
          selected
            ? "border-primary bg-primary/5"
            : "border-transparent hover:border-border hover:bg-muted/60",
        )}
      >
        <PlayerAvatar name={player.name} src={player.crest} />
        <span class="min-w-0 flex-1">
          <span class="block truncate font-semibold">{player.name}</span>
          <span class="block truncate text-xs text-muted-foreground">{player.teamName}</span>
        </span>
        <PositionBadge position={player.position} />
        <span class="w-16 shrink-0 text-right text-sm font-semibold tabular-nums">
          ${formatWhole(player.salary)}
        </span>
        <span
          aria-hidden="true"
          class={cn(
            "flex h-7 w-7 shrink-0 items-center justify-center rounded-full border text-sm font-bold",
            selected
              ? "border-primary bg-primary text-primary-foreground"
              : "border-border text-muted-foreground",
          )}
        >
          {selected ? "✓" : "+"}
        </span>
      </button>
    </li>
  );
}

/** One player of the list; re-renders only when its own props change. */
export const PlayerRow = memo(PlayerRowView);
