import { useEffect, useState } from "react";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";

export interface SalaryInputProps {
  player: PlayerWithTeam;
  /** Saves the new salary; resolves false when it was refused (the input then reverts). */
  onCommit: (player: PlayerWithTeam, salary: number) => Promise<boolean>;
}

/** An inline salary field saved when it loses focus (min 100, step 100). */
export function SalaryInput({ player, onCommit }: SalaryInputProps) {
  const [value, setValue] = useState(String(player.salary));
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(String(player.salary)), [player.salary]);

  const commit = async () => {
    const salary = Number(value);
    if (value.trim() === "" || salary === player.salary) {
      setValue(String(player.salary));
      return;
    }
    setBusy(true);
    const ok = await onCommit(player, salary);
    setBusy(false);
    if (!ok) setValue(String(player.salary));
  };

  return (
    <div className="inline-flex items-center gap-1">
      <span className="text-muted-foreground" aria-hidden="true">$</span>
      <input
        type="number"
        min="100"
        step="100"
        inputMode="numeric"
        aria-label={`Salary of ${player.name}`}
        value={value}
        disabled={busy}
        onChange={(e) => setValue(e.currentTarget.value)}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === "Enter") e.currentTarget.blur();
        }}
        className="h-8 w-24 rounded-md border border-border bg-background px-2 text-right text-sm tabular-nums focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
      />
    </div>
  );
}
