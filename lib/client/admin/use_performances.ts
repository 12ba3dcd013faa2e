/** Drafts of a competition's performances, their validation and 'Save All'. */
import { useEffect, useState } from "react";
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import type { FieldErrors } from "@/lib/client/form_errors.ts";
import {
  draftErrors,
  draftOf,
  draftPayload,
  type PerfDraft,
} from "@/lib/client/admin/performance_draft.ts";
import type { PerformanceRecord } from "@/lib/client/admin/types.ts";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";

/** Loads the performances of `competitionId` (null: none chosen) and keeps editable drafts. */
export function usePerformances(competitionId: number | null) {
  const path = competitionId ? `/api/admin/competitions/${competitionId}/performances` : null;
  const records = useAdminData<PerformanceRecord[]>(path);
  const [drafts, setDrafts] = useState<Record<number, PerfDraft>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const list = records.data ?? [];
    setDrafts(Object.fromEntries(list.map((r) => [r.player.id, draftOf(r)])));
  }, [records.data]);

  const list = (records.data ?? []).filter((r) => drafts[r.player.id]);
  const errors: Record<number, FieldErrors | null> = Object.fromEntries(
    list.map((
      r,
    ) => [r.player.id, draftErrors(r.player.id, r.player.position, drafts[r.player.id])]),
  );

  const change = (playerId: number, patch: Partial<PerfDraft>) =>
    setDrafts((all) => ({ ...all, [playerId]: { ...all[playerId], ...patch } }));

  const saveAll = async () => {
    if (!competitionId) return;
    const firstError = Object.values(errors).find((e) => e !== null);
    if (firstError) {
      toastError(Object.values(firstError)[0]);
      return;
    }
    setSaving(true);
    try {
      await adminFetch(`/api/admin/competitions/${competitionId}/performances`, {
        method: "POST",
        body: {
          performances: list.map((r) =>
            draftPayload(r.player.id, r.player.position, drafts[r.player.id])
          ),
        },
      });
      toast({ title: "Success", description: "Player performances updated successfully" });
      await records.reload();
    } catch (err) {
      toastError(errorText(err, "Failed to update player performances"));
    } finally {
      setSaving(false);
    }
  };

  return { records, list, drafts, errors, change, saving, saveAll };
}
