import { useState } from "react";
import { buttonClass } from "@/components/ui/Button.tsx";
import { Avatar } from "./Avatar.tsx";
import { Td, Tr } from "./Table.tsx";
import { cn } from "@/lib/client/cn.ts";
import {
  type CountKey,
  draftPoints,
  LIMITS,
  type PerfDraft,
} from "@/lib/client/admin/performance_draft.ts";
import type { FieldErrors } from "@/lib/client/form_errors.ts";
import type { PerformanceRecord } from "@/lib/client/admin/types.ts";

export interface PerformanceRowProps {
  player: PerformanceRecord["player"];
  draft: PerfDraft;
  errors: FieldErrors | null;
  columns: number;
  onChange: (patch: Partial<PerfDraft>) => void;
}

const LABELS: Record<CountKey, string> = {
  minutesPlayed: "Minutes",
  goals: "Goals",
  assists: "Assists",
  saves: "Saves",
  goalsConceded: "Goals conceded",
  yellowCards: "Yellow cards",
  penaltySaves: "Penalty saves",
  penaltyMisses: "Penalty misses",
  ownGoals: "Own goals",
  bonus: "Bonus",
};

const BOX = "block h-4 w-4 rounded border-border accent-primary";

/** One player's row: the main stats inline, penalty/own-goal/bonus behind More. */
export function PerformanceRow({ player, draft, errors, columns, onChange }: PerformanceRowProps) {
  const [open, setOpen] = useState(false);
  const gk = player.position === "GK";
  const conceded = gk || player.position === "DEF";
  const points = draftPoints(player.position, draft);
  const firstError = errors ? Object.values(errors)[0] : null;

  const count = (key: CountKey, extra?: { onBlur?: () => void }) => (
    <input
      type="number"
      inputMode="numeric"
      min={LIMITS[key].min}
      max={LIMITS[key].max}
      step={LIMITS[key].step ?? 1}
      value={draft[key]}
      aria-label={`${LABELS[key]} of ${player.name}`}
      aria-invalid={errors?.[key] ? true : undefined}
      aria-describedby={errors?.[key] ? `perf-error-${player.id}` : undefined}
      onChange={(e) => onChange({ [key]: e.currentTarget.value })}
      onBlur={extra?.onBlur}
      className={cn(
        "h-8 w-16 rounded-md border border-border bg-background px-2 text-right text-sm tabular-nums",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        "aria-[invalid=true]:border-destructive aria-[invalid=true]:bg-destructive/10",
        "aria-[invalid=true]:text-destructive",
      )}
    />
  );
  const flag = (key: "cleanSheet" | "redCard", label: string) => (
    <input
      type="checkbox"
      className={BOX}
      checked={draft[key]}
      aria-label={`${label} for ${player.name}`}
      onChange={(e) => onChange({ [key]: e.currentTarget.checked })}
    />
  );
  const extra = (key: CountKey, onBlur?: () => void) => (
    <label className="flex items-center gap-2 text-xs font-medium">
      {LABELS[key]}
      {count(key, { onBlur })}
    </label>
  );

  return (
    <>
      <Tr data-player-id={player.id}>
        <Td>
          <div className="flex items-center gap-2">
            <Avatar src={player.team?.logoUrl} name={player.name} size="sm" />
            <div className="min-w-0">
              <div className="font-medium">{player.name}</div>
              <div className="text-xs text-muted-foreground">{player.team?.shortName ?? ""}</div>
              {firstError && (
                <div
                  id={`perf-error-${player.id}`}
                  className="text-xs font-medium text-destructive"
                >
                  {firstError}
                </div>
              )}
            </div>
          </div>
        </Td>
        <Td>{count("minutesPlayed")}</Td>
        <Td>{count("goals")}</Td>
        <Td>{count("assists")}</Td>
        {gk && <Td>{count("saves")}</Td>}
        {conceded && <Td>{count("goalsConceded")}</Td>}
        <Td>
          <div className="flex justify-center">{flag("cleanSheet", "Clean sheet")}</div>
        </Td>
        <Td>
          <div className="flex items-center gap-3">
            <span className="flex items-center gap-1.5" title="Yellow cards">
              <span
                aria-hidden="true"
                className="inline-block h-3.5 w-2.5 rounded-sm bg-yellow-400"
              />
              {count("yellowCards")}
            </span>
            <label className="flex items-center gap-1.5" title="Red card">
              <span
                aria-hidden="true"
                className="inline-block h-3.5 w-2.5 rounded-sm bg-destructive"
              />
              {flag("redCard", "Red card")}
            </label>
          </div>
        </Td>
        <Td className="text-right font-semibold tabular-nums" data-points="">{points}</Td>
        <Td className="text-right">
          <button
            type="button"
            aria-expanded={open}
            className={buttonClass({ variant: "ghost", size: "sm" })}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide" : "More"}
          </button>
        </Td>
      </Tr>
      {open && (
        <tr className="border-b border-border bg-muted/30">
          <td colSpan={columns} className="px-3 py-3">
            <div className="flex flex-wrap items-center gap-6">
              {gk && extra("penaltySaves")}
              {gk && extra("penaltyMisses")}
              {extra("ownGoals")}
              {extra("bonus", () => {
                if (Number(draft.bonus) > 0) onChange({ bonus: "3" });
              })}
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
