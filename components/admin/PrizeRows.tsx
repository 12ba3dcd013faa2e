import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Icon } from "./Icons.tsx";
import { ordinal } from "@/lib/domain/format.ts";
import { cn } from "@/lib/client/cn.ts";
import type { PrizeDraft } from "@/lib/client/admin/use_prize_editor.ts";

export interface PrizeRowsProps {
  drafts: PrizeDraft[];
  /** The competition's prize pool, for each row's share. */
  pool: number;
  onUpdate: (key: number, patch: Partial<PrizeDraft>) => void;
  onRemove: (key: number) => void;
}

const GRID = "grid grid-cols-[3rem_5.5rem_minmax(0,11rem)_3.5rem_2.5rem] items-center gap-3";

/** A row's part of the pool, e.g. "50%" or "33.3%"; blank when it cannot be worked out. */
function share(prize: string, pool: number): string {
  const amount = Number(prize);
  if (!(pool > 0) || prize.trim() === "" || !Number.isFinite(amount)) return "";
  return `${Math.round((amount / pool) * 1000) / 10}%`;
}

/** The editable rows (position and prize amount) of the prize structure, with column heads. */
export function PrizeRows({ drafts, pool, onUpdate, onRemove }: PrizeRowsProps) {
  return (
    <div className="flex flex-col gap-2">
      <div
        aria-hidden="true"
        className={cn(GRID, "text-xs font-semibold uppercase tracking-wide text-muted-foreground")}
      >
        <span>Place</span>
        <span>Position</span>
        <span>Prize Amount ($)</span>
        <span className="text-right">Share</span>
        <span />
      </div>
      <ol className="flex flex-col gap-2" aria-label="Prize positions">
        {drafts.map((d, i) => {
          const place = Number(d.position) > 0 ? ordinal(Number(d.position)) : "—";
          return (
            <li key={d.key} className={GRID} data-prize-row={i}>
              <span className="text-sm font-semibold">{place}</span>
              <div>
                <label htmlFor={`position-${d.key}`} className="sr-only">Position</label>
                <Input
                  id={`position-${d.key}`}
                  type="number"
                  inputMode="numeric"
                  min="1"
                  step="1"
                  value={d.position}
                  className="text-right tabular-nums"
                  onChange={(e) => onUpdate(d.key, { position: e.currentTarget.value })}
                />
              </div>
              <div className="relative">
                <label htmlFor={`prize-${d.key}`} className="sr-only">Prize Amount ($)</label>
                <span
                  aria-hidden="true"
                  className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-sm text-muted-foreground"
                >
                  $
                </span>
                <Input
                  id={`prize-${d.key}`}
                  type="number"
                  inputMode="decimal"
                  min="0.01"
                  step="0.01"
                  value={d.prize}
                  className="pl-7 text-right tabular-nums"
                  onChange={(e) => onUpdate(d.key, { prize: e.currentTarget.value })}
                />
              </div>
              <span className="text-right text-sm tabular-nums text-muted-foreground">
                {share(d.prize, pool)}
              </span>
              <Button
                variant="ghost"
                size="icon"
                className="text-muted-foreground hover:text-destructive"
                aria-label={`Remove position ${d.position || i + 1}`}
                disabled={drafts.length <= 1}
                onClick={() => onRemove(d.key)}
              >
                <Icon name="trash" />
              </Button>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
