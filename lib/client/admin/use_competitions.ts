/** Dashboard data: the competitions list with its error toasts, delete and copy link. */
import { useEffect } from "react";
import {
  adminFetch,
  errorText,
  isUnauthorized,
  UNEXPECTED_ERROR,
} from "@/lib/client/admin/admin_api.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";
import { useAdminData } from "@/lib/client/admin/use_admin_data.ts";

/** Loads the admin competitions list; failures toast 'Authentication failed' or 'Failed to fetch competitions'. */
export function useCompetitions() {
  const list = useAdminData<CompetitionRow[]>("/api/admin/competitions");

  useEffect(() => {
    if (!list.error) return;
    toast({
      title: isUnauthorized(list.error) ? "Authentication failed" : "Failed to fetch competitions",
      variant: "destructive",
    });
  }, [list.error]);

  // While a cancellation refunds in the background, its progress is read again every 2 s.
  const refunding = list.data?.some((row) =>
    row.cancellation && !row.cancellation.finishedAt &&
    row.cancellation.processed < row.cancellation.total
  );
  useEffect(() => {
    if (!refunding) return;
    const timer = setTimeout(() => void list.reload(), 2000);
    return () => clearTimeout(timer);
  }, [list.data, refunding]);

  return {
    rows: list.data,
    failed: Boolean(list.error),
    loading: list.loading,
    reload: list.reload,
    setRows: list.setData,
  };
}

/** Deletes a competition with a toast for each outcome; resolves true when it was deleted. */
export async function deleteCompetition(id: number): Promise<boolean> {
  try {
    await adminFetch(`/api/admin/competitions/${id}`, { method: "DELETE" });
    toast({ title: "Competition Deleted", description: "The competition has been deleted." });
    return true;
  } catch (err) {
    const message = errorText(err, "Failed to delete competition");
    if (message === UNEXPECTED_ERROR) toastError(message);
    else {toast({
        title: "Error Deleting Competition",
        description: message,
        variant: "destructive",
      });}
    return false;
  }
}

/** Copies the direct entry link of a competition ('Entry Link Copied', 3 s). */
export async function copyEntryLink(id: number): Promise<void> {
  try {
    await navigator.clipboard.writeText(`${location.origin}/team-selection/${id}`);
    toast({
      title: "Entry Link Copied",
      description: "Direct link to make picks copied to clipboard",
      duration: 3000,
    });
  } catch {
    toast({ title: "Failed to copy link to clipboard", variant: "destructive" });
  }
}

/**
 * Cancels a competition (every paid entry refunded, each entrant e-mailed); a repeat finishes
 * refunds or e-mails that did not go through. Resolves to the saved row, or null on failure.
 */
export async function cancelCompetition(
  id: number,
  reason: string,
): Promise<CompetitionRow | null> {
  try {
    const answer = await adminFetch<{ message: string; competition: CompetitionRow }>(
      `/api/admin/competitions/${id}/cancel`,
      { method: "POST", body: { reason } },
    );
    toast({ title: "Competition Cancelled", description: answer.message });
    return answer.competition;
  } catch (err) {
    toast({
      title: "Error Cancelling Competition",
      description: errorText(err, "Failed to cancel competition"),
      variant: "destructive",
    });
    return null;
  }
}
