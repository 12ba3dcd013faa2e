/** Dashboard data: the competitions list with its SPEC §8 error toasts, delete and copy link. */
import { useCallback, useEffect, useState } from "react";
import { adminFetch, errorText, isUnauthorized } from "./admin_api.ts";
import { toast } from "../toast.ts";
import type { CompetitionRow } from "./types.ts";

/** Loads the admin competitions list; failures toast 'Authentication failed' or 'Failed to fetch competitions'. */
export function useCompetitions() {
  const [rows, setRows] = useState<CompetitionRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [loading, setLoading] = useState(true);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setRows(await adminFetch<CompetitionRow[]>("/api/admin/competitions"));
      setFailed(false);
    } catch (err) {
      setFailed(true);
      toast({
        title: isUnauthorized(err) ? "Authentication failed" : "Failed to fetch competitions",
        variant: "destructive",
      });
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { rows, failed, loading, reload, setRows };
}

/** Deletes a competition with the SPEC §8 toasts; resolves true when it was deleted. */
export async function deleteCompetition(id: number): Promise<boolean> {
  try {
    await adminFetch(`/api/admin/competitions/${id}`, { method: "DELETE" });
    toast({ title: "Competition Deleted", description: "The competition has been deleted." });
    return true;
  } catch (err) {
    const message = errorText(err, "Failed to delete competition");
    toast(
      message === "An unexpected error occurred"
        ? { title: "Error", description: message, variant: "destructive" }
        : { title: "Error Deleting Competition", description: message, variant: "destructive" },
    );
    return false;
  }
}

/** Copies the direct entry link of a competition (SPEC §8 'Entry Link Copied', 3 s). */
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
