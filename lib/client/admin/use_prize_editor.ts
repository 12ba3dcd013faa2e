/** State of the Prize Structure editor: rows as typed, and the helpers applied to them. */
import { useState } from "react";
import {
  addPrizeRow,
  autoDistribute,
  defaultPrizeRows,
  fixTotal,
  type PrizeRow,
  prizeTotal,
  prizeTotalMatches,
} from "@/lib/domain/prizes.ts";
import { prizeStructureInputSchema } from "@/lib/domain/schemas/competitions.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";

/** A row as typed in the inputs. */
export interface PrizeDraft {
  key: number;
  position: string;
  prize: string;
}

let nextKey = 1;
const toDraft = (r: PrizeRow): PrizeDraft => ({
  key: nextKey++,
  position: String(r.position),
  prize: String(r.prize),
});
const toRow = (d: PrizeDraft): PrizeRow => ({
  position: Number(d.position) || 0,
  prize: Number(d.prize) || 0,
});

/**
 * Editor state for a pool; `initial` are the saved rows. With none, three places share the pool
 * (50/30/20, `autoDistribute`): a default that adds up, where a single half-pool 1st place opened
 * the editor in red.
 */
export function usePrizeEditor(competitionId: number, pool: number, initial: PrizeRow[]) {
  const [drafts, setDrafts] = useState<PrizeDraft[]>(() =>
    (initial.length > 0 ? initial : defaultPrizeRows(pool)).map(toDraft)
  );
  const [saving, setSaving] = useState(false);
  const rows = drafts.map(toRow);
  const total = prizeTotal(rows);
  const matches = prizeTotalMatches(rows, pool);

  const update = (key: number, patch: Partial<PrizeDraft>) =>
    setDrafts(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  const add = () => {
    const next = addPrizeRow(rows, pool);
    // Keep the drafts (and their keys) of unchanged rows; a row that gave half its prize and
    // the new row get fresh drafts.
    setDrafts([
      ...drafts.map((d, i) =>
        next[i].prize === rows[i].prize ? d : { ...toDraft(next[i]), key: d.key }
      ),
      toDraft(next[next.length - 1]),
    ]);
  };
  const remove = (key: number) => {
    if (drafts.length > 1) setDrafts(drafts.filter((d) => d.key !== key));
  };
  const distribute = () => setDrafts(autoDistribute(pool, drafts.length).map(toDraft));
  const fix = () => {
    const fixed = fixTotal(rows, pool);
    if (!fixed) {
      toast({
        title: "Cannot Adjust Prizes",
        description: "Please adjust prize values manually or add more prize positions",
        variant: "destructive",
      });
      return;
    }
    setDrafts(fixed.map(toDraft));
    toast({
      title: "Prize Structure Adjusted",
      description: "The last prize was changed so the total matches the prize pool.",
    });
  };

  const save = async () => {
    const body = drafts.map((d) => ({ position: d.position, prize: d.prize, competitionId }));
    const parsed = prizeStructureInputSchema.safeParse(body);
    if (!parsed.success) {
      toastError(parsed.error.issues[0].message);
      return;
    }
    setSaving(true);
    try {
      await adminFetch(`/api/admin/competitions/${competitionId}/prizes`, {
        method: "POST",
        body: parsed.data.map((r) => ({ ...r, competitionId })),
      });
      toast({ title: "Prize Structure Updated", description: "The prize structure was saved." });
    } catch (err) {
      toastError(errorText(err, "Failed to update prize structure"));
    } finally {
      setSaving(false);
    }
  };

  return { drafts, total, matches, saving, update, add, remove, distribute, fix, save };
}
