import { teamSalary } from "@/lib/domain/team_rules.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import type { TeamState } from "@/lib/client/use_team.ts";
import type { BuilderCompetition } from "./BuilderHeader.tsx";
import { PlayerBrowser } from "./PlayerBrowser.tsx";
import { SubmitBar } from "./SubmitBar.tsx";
import { TeamPanel } from "./TeamPanel.tsx";

export interface PickingAreaProps {
  competition: BuilderCompetition;
  /** Null while loading. */
  players: PickPlayer[] | null;
  picks: TeamState;
  salaryCap: number | null;
  /** Why no team can be built yet (the competition lacks players). */
  missing: string | null;
  /** The submit button is disabled (no team can be built, or the deadline passed). */
  closed: boolean;
  busy?: boolean;
  label?: string;
  onSubmit: () => void;
  /** Players whose match kicked off (late swap): padlocked in the list and the team. */
  lockedIds?: ReadonlySet<number> | null;
  /** When each open pick locks (late swap), by player id. */
  lockTimes?: ReadonlyMap<number, string> | null;
}

/**
 * The team picking area of the builder and of the edit page: the player list, the chosen team
 * (beside the list on wide screens, above it on phones) and the submit bar.
 */
export function PickingArea(
  {
    competition,
    players,
    picks,
    salaryCap,
    missing,
    closed,
    busy,
    label,
    onSubmit,
    lockedIds = null,
    lockTimes = null,
  }: PickingAreaProps,
) {
  const remaining = salaryCap === null ? null : salaryCap - teamSalary(picks.selected);
  return (
    <>
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="lg:sticky lg:top-20 lg:order-2">
          <TeamPanel
            selected={picks.selected}
            salaryCap={salaryCap}
            currency={competition.currency}
            onRemove={picks.remove}
            lockedIds={lockedIds}
            lockTimes={lockTimes}
            captains={competition.captainMultiplier
              ? {
                multiplier: competition.captainMultiplier,
                captainId: picks.captainId,
                viceCaptainId: picks.viceCaptainId,
                onMark: picks.mark,
              }
              : null}
          />
        </div>
        <div className="min-w-0 lg:order-1">
          <PlayerBrowser
            players={players}
            selectedIds={picks.selectedIds}
            currency={competition.currency}
            missing={missing}
            fixture={competition.fixture}
            submitLabel={label}
            fixtures={competition.fixtures}
            lockedIds={lockedIds}
            onToggle={picks.toggle}
          />
        </div>
      </div>
      <SubmitBar
        count={picks.selected.length}
        remaining={remaining}
        currency={competition.currency}
        closed={closed}
        busy={busy}
        label={label}
        onSubmit={onSubmit}
      />
    </>
  );
}
