import { formatSalary } from "@/lib/domain/format.ts";
import { TEAM_SIZE, teamSalary } from "@/lib/domain/team_rules.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { cn } from "@/lib/client/cn.ts";
import { PlayerAvatar } from "@/components/PlayerAvatar.tsx";
import { PositionBadge } from "./PositionBadge.tsx";
import { Padlock } from "./Padlock.tsx";
import { multiplierText } from "@/lib/domain/captain.ts";
import type { Role } from "@/lib/client/use_team.ts";

export interface TeamPanelProps {
  selected: PickPlayer[];
  salaryCap: number | null;
  /** The competition's currency: salaries and the cap are shown in it. */
  currency: string;
  onRemove: (player: PickPlayer) => void;
  /** The captain choice, when the competition has captains. */
  captains?: PanelCaptains | null;
  /** Picks whose match kicked off (late swap): a padlock, not removable. */
  lockedIds?: ReadonlySet<number> | null;
  /** When each open pick locks (late swap), by player id, as shown ("Sat 15:00 GMT"). */
  lockTimes?: ReadonlyMap<number, string> | null;
}

/** The captain and vice-captain of the panel's team, and how to change them. */
export interface PanelCaptains {
  multiplier: number;
  captainId: number | null;
  viceCaptainId: number | null;
  onMark: (player: PickPlayer, role: Role) => void;
}

/** A role toggle of a pick: a real button, pressed while the player holds the role. */
function RoleButton(
  { player, role, on, onMark }: {
    player: PickPlayer;
    role: Role;
    on: boolean;
    onMark: PanelCaptains["onMark"];
  },
) {
  const name = role === "captain" ? "Captain" : "Vice-captain";
  return (
    <button
      type="button"
      aria-pressed={on}
      aria-label={`${name}: ${player.name}`}
      title={on
        ? `${player.name} is ${name.toLowerCase()}`
        : `Make ${player.name} ${name.toLowerCase()}`}
      data-role={role}
      onClick={() => onMark(player, role)}
      className={cn(
        "h-[27px] w-9 rounded-md border text-xs font-bold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        on
          ? "border-primary bg-primary text-primary-foreground"
          : "border-border bg-background text-muted-foreground hover:border-primary hover:text-foreground",
      )}
    >
      {role === "captain" ? "C" : "V"}
    </button>
  );
}

/** Team salary against the cap; the bar turns destructive over the cap. */
function SalaryBar({ total, cap, currency }: { total: number; cap: number; currency: string }) {
  const over = total > cap;
  const percent = Math.min(100, Math.round((total / cap) * 100));
  return (
    <div className="grid gap-1.5" data-salary-bar={over ? "over" : "ok"}>
      <div className="flex items-baseline justify-between text-sm">
        <span className="font-medium">Salary</span>
        <span className={over ? "font-semibold text-destructive" : "text-muted-foreground"}>
          {formatSalary(total, currency)} / {formatSalary(cap, currency)}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Team salary used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2.5 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn(
            "h-full rounded-full transition-all",
            over ? "bg-destructive" : "bg-primary",
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

function FilledSlot(
  { player, currency, onRemove, locked = false, lockTime = null }: {
    player: PickPlayer;
    currency: string;
    onRemove: TeamPanelProps["onRemove"];
    locked?: boolean;
    lockTime?: string | null;
  },
) {
  return (
    <button
      type="button"
      onClick={() => onRemove(player)}
      aria-disabled={locked || undefined}
      data-pick-locked={locked ? "" : undefined}
      title={locked ? `${player.name} is locked` : `Remove ${player.name}`}
      className={cn(
        "group flex min-h-[3.5rem] w-full min-w-0 flex-1 items-center gap-3 rounded-lg border border-border px-3 text-left transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        locked ? "bg-muted/60" : "bg-background hover:border-destructive hover:bg-destructive/5",
      )}
    >
      <PlayerAvatar name={player.name} src={player.crest} size="sm" />
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm font-semibold">
          <span className="sr-only">Remove</span> {player.name}
        </span>
        <span className="block truncate text-xs text-muted-foreground">
          {player.teamShortName} · {formatSalary(player.salary, currency)}
        </span>
        {locked && (
          <span
            className="flex items-center gap-1 truncate text-xs font-medium"
            data-lock-state="locked"
          >
            <Padlock size={12} /> Locked
          </span>
        )}
        {!locked && lockTime && (
          <span className="block truncate text-xs text-muted-foreground" data-lock-state="open">
            Locks {lockTime}
          </span>
        )}
      </span>
      <PositionBadge position={player.position} />
      {locked ? <Padlock size={16} className="shrink-0 text-muted-foreground" /> : (
        <svg
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          className="shrink-0 text-muted-foreground group-hover:text-destructive"
        >
          <path d="M18 6 6 18M6 6l12 12" stroke="currentColor" strokeWidth="2" />
        </svg>
      )}
    </button>
  );
}

function EmptySlot({ index }: { index: number }) {
  return (
    <div className="flex h-14 flex-1 items-center gap-3 rounded-lg border border-dashed border-border px-3 text-sm text-muted-foreground">
      <span
        className="flex h-8 w-8 items-center justify-center rounded-full bg-muted text-xs font-semibold"
        aria-hidden="true"
      >
        {index + 1}
      </span>
      Pick a player
    </div>
  );
}

/** 'Your Team (n/5)': five slots (a click removes the player) and the salary bar. */
export function TeamPanel(
  {
    selected,
    salaryCap,
    currency,
    onRemove,
    captains = null,
    lockedIds = null,
    lockTimes = null,
  }: TeamPanelProps,
) {
  const slots = Array.from({ length: TEAM_SIZE }, (_, i) => selected[i] ?? null);
  return (
    <section
      aria-labelledby="your-team-title"
      className="grid grid-cols-1 gap-4 rounded-xl border border-border bg-card p-5 shadow-sm"
    >
      <div className="flex items-center justify-between">
        <h2 id="your-team-title" className="text-lg font-semibold">
          Your Team ({selected.length}/{TEAM_SIZE})
        </h2>
        {selected.length > 0 && (
          <span className="text-xs text-muted-foreground">Tap a player to remove</span>
        )}
      </div>
      <ol className="grid grid-cols-1 gap-2">
        {slots.map((player, i) => (
          <li key={player ? player.id : `empty-${i}`} className="flex gap-1.5">
            {player
              ? (
                <FilledSlot
                  player={player}
                  currency={currency}
                  onRemove={onRemove}
                  locked={lockedIds?.has(player.id) ?? false}
                  lockTime={lockTimes?.get(player.id) ?? null}
                />
              )
              : <EmptySlot index={i} />}
            {player && captains && (
              <div className="flex shrink-0 flex-col gap-0.5">
                {(["captain", "vice"] as const).map((role) => (
                  <RoleButton
                    key={role}
                    player={player}
                    role={role}
                    on={player.id ===
                      (role === "captain" ? captains.captainId : captains.viceCaptainId)}
                    onMark={captains.onMark}
                  />
                ))}
              </div>
            )}
          </li>
        ))}
      </ol>
      {captains && (
        <p className="text-xs text-muted-foreground" data-captain-hint="">
          Mark a captain (C): their points count{" "}
          {multiplierText(captains.multiplier)}. The vice-captain (V) takes over if the captain's
          match ends without him playing.
        </p>
      )}
      {salaryCap !== null && (
        <SalaryBar total={teamSalary(selected)} cap={salaryCap} currency={currency} />
      )}
    </section>
  );
}
