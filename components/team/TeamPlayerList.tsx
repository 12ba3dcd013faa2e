import { PlayerAvatar } from "@/components/PlayerAvatar.tsx";
import { PositionBadge } from "./PositionBadge.tsx";
import type { PickPlayer } from "@/lib/client/players.ts";
import { formatShare } from "@/lib/client/live/format.ts";
import { RoleBadge, roleIn, type TeamRoles } from "./RoleBadge.tsx";

export interface TeamPlayerListProps {
  players: PickPlayer[];
  /** Share of the competition's entries that picked each player (0..1), when known. */
  ownership?: Record<number, number> | null;
  /** The team's captain and vice-captain, marked C and V (contests with captains). */
  roles?: TeamRoles | null;
}

/** The five players of a team, as read-only rows (crest, name, club, position, picked by). */
export function TeamPlayerList({ players, ownership = null, roles = null }: TeamPlayerListProps) {
  return (
    <ul className="grid grid-cols-[minmax(0,1fr)] gap-2" data-team-players="">
      {players.map((p) => (
        <li
          key={p.id}
          className="flex items-center gap-3 rounded-lg border border-border px-3 py-2"
        >
          <PlayerAvatar name={p.name} src={p.crest} size="sm" />
          <span className="min-w-0 flex-1">
            <span className="flex min-w-0 items-center font-semibold">
              <span className="truncate">{p.name}</span>
              {roleIn(roles, p.id) && <RoleBadge role={roleIn(roles, p.id)!} />}
            </span>
            <span className="block truncate text-xs text-muted-foreground">{p.teamName}</span>
          </span>
          {ownership && (
            <span
              className="shrink-0 text-right text-xs tabular-nums text-muted-foreground"
              data-ownership=""
            >
              <span className="sr-only sm:not-sr-only">Picked by</span>{" "}
              {formatShare(ownership[p.id] ?? 0)}
            </span>
          )}
          <PositionBadge position={p.position} />
        </li>
      ))}
    </ul>
  );
}
