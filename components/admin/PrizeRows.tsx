import { Button } from "../ui/Button.tsx";
import { Input } from "../ui/Input.tsx";
import { Icon } from "./Icons.tsx";
import { ordinal } from "../../lib/domain/format.ts";
import type { PrizeDraft } from "../../lib/ui/admin/use_prize_editor.ts";

export interface PrizeRowsProps {
  drafts: PrizeDraft[];
  onUpdate: (key: number, patch: Partial<PrizeDraft>) => void;
  onRemove: (key: number) => void;
}

/** The editable rows (position and prize amount) of the prize structure. */
export function PrizeRows({ drafts, onUpdate, onRemove }: PrizeRowsProps) {
  return (
    <ol class="flex flex-col gap-3" aria-label="Prize positions">
      {drafts.map((d, i) => {
        const place = Number(d.position) > 0 ? ordinal(Number(d.position)) : "—";
        return (
          <li
            key={d.key}
            class="grid grid-cols-[4rem_1fr_1fr_auto] items-end gap-3"
            data-prize-row={i}
          >
            <span class="pb-2.5 text-sm font-semibold text-muted-foreground">{place}</span>
            <div class="flex flex-col gap-1.5">
              <label for={`position-${d.key}`} class="text-xs font-medium">Position</label>
              <Input
                id={`position-${d.key}`}
                type="number"
                min="1"
                step="1"
                value={d.position}
                onInput={(e) => onUpdate(d.key, { position: e.currentTarget.value })}
              />
            </div>
            <div class="flex flex-col gap-1.5">
              <label for={`prize-${d.key}`} class="text-xs font-medium">Prize Amount ($)</label>
              <Input
                id={`prize-${d.key}`}
                type="number"
                min="0.01"
                step="0.01"
                value={d.prize}
                onInput={(e) => onUpdate(d.key, { prize: e.currentTarget.value })}
              />
            </div>
            <Button
              variant="ghost"
              size="icon"
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
  );
}
