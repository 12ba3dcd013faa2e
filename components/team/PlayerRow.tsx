import { memo } from "react";
import { formatSalary, pointsText } from "@/lib/domain/format.ts";
import { seasonPoints } from "@/lib/domain/scoring.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { cn } from "@/lib/client/cn.ts";
import { PlayerAvatar } from "@/components/PlayerAvatar.tsx";
import { PositionBadge } from "./PositionBadge.tsx";
import { Padlock } from "./Padlock.tsx";

export interface PlayerRowProps {
  player: PickPlayer;
  selected: boolean;
  /** Filtered out: kept in the DOM, hidden, so filtering only flips attributes. */
  hidden: boolean;
  /** The competition's currency: the salary is shown in it. */
  currency: string;
  /** "v CHE (H)" when the player's club is in the competition's match. */
  opponent: string | null;
  /** The match's kick-off ("Sat 15:00"), shown beside the opponent on wider screens. */
  kickoff: string;
  /** The player's match kicked off (late swap): a padlock, and the row cannot be toggled. */
  locked?: boolean;
  onToggle: (player: PickPlayer) => void;
  /** Opens the player's card. */
  onInfo: (player: PickPlayer) => void;
}

/** Off-screen rows skip layout and paint, so showing all 300 again stays cheap. */
const ROW_STYLE = { contentVisibility: "auto", containIntrinsicSize: "auto 74px" };

/** "16 pts · 2G 1A 3CS": the season so far, short enough for a phone's row. */
export function seasonLine(player: PickPlayer): { text: string; title: string } {
  const { goals, assists, cleanSheets } = player.season ??
    { goals: 0, assists: 0, cleanSheets: 0 };
  const points = seasonPoints(player.position, { goals, assists, cleanSheets }).totalPoints;
  return {
    text: `${pointsText(points)} · ${goals}G ${assists}A ${cleanSheets}CS`,
    title: `${goals} goals, ${assists} assists, ${cleanSheets} clean sheets this season`,
  };
}

type RowButtonProps = Omit<PlayerRowProps, "hidden" | "onInfo">;

/** The row's content; memoised apart from the <li> so filtering never re-renders it. */
const RowButton = memo(function RowButton(
  { player, selected, currency, opponent, kickoff, locked = false, onToggle }: RowButtonProps,
) {
  const season = seasonLine(player);
  return (
    <button
      type="button"
      aria-pressed={selected}
      aria-disabled={locked || undefined}
      data-locked={locked ? "" : undefined}
      title={locked ? `${player.name} is locked: his match has kicked off` : undefined}
      onClick={() => onToggle(player)}
      className={cn("player-row", selected ? "chosen-row" : "open-row")}
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
          <span className="hidden truncate sm:inline">{player.teamName}</span>
          {!opponent && <span className="truncate sm:hidden">{player.teamShortName}</span>}
          {opponent && (
            <span className="truncate" data-fixture="">
              <span className="hidden sm:inline">·</span> {opponent}
              <span className="hidden sm:inline">{` ${kickoff}`}</span>
            </span>
          )}
        </span>
        <span className="player-stats" title={season.title} data-season="">{season.text}</span>
      </span>
      <span className="hidden sm:block">
        <PositionBadge position={player.position} />
      </span>
      <span className="player-salary">
        {formatSalary(player.salary, currency)}
      </span>
      <span
        aria-hidden="true"
        className={cn("pick-mark", selected ? "chosen-mark" : "open-mark")}
      >
        {locked ? <Padlock size={13} /> : selected ? "✓" : "+"}
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
