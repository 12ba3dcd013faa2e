/** Round calls of the admin screens with their toasts. */
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";
import type { MatchWithTeams } from "@/lib/client/admin/types.ts";

/** A round as the admin API answers it. */
export interface AdminRound {
  id: number;
  name: string;
  matchIds: number[];
  matches: MatchWithTeams[];
}

/** Creates (no id) or saves a round; resolves to the saved round, or null when refused. */
export async function saveRound(
  id: number | null,
  body: { name: string; matchIds: number[] },
): Promise<{ round: AdminRound | null; fieldError: string | null }> {
  try {
    const round = await adminFetch<AdminRound>(
      id === null ? "/api/admin/rounds" : `/api/admin/rounds/${id}`,
      { method: id === null ? "POST" : "PUT", body },
    );
    toast({ title: id === null ? "Round Created" : "Round Updated", description: round.name });
    return { round, fieldError: null };
  } catch (err) {
    const issue = err instanceof ApiError ? err.issues[0]?.message ?? null : null;
    toastError(errorText(err, id === null ? "Failed to create round" : "Failed to update round"));
    return { round: null, fieldError: issue };
  }
}

/** Deletes a round; resolves true on success. */
export async function deleteRound(id: number): Promise<boolean> {
  try {
    await adminFetch(`/api/admin/rounds/${id}`, { method: "DELETE" });
    toast({ title: "Round Deleted", description: "The round has been deleted." });
    return true;
  } catch (err) {
    toastError(errorText(err, "Failed to delete round"));
    return false;
  }
}
