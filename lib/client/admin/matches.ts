/** Match calls of the admin screens with their toasts. */
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";

/** True when a delete failure says the match is used by a competition. */
function isMatchInUse(err: unknown): boolean {
  return err instanceof ApiError && /competition/i.test(err.serverMessage ?? "");
}

/** Deletes a match; resolves true on success. */
export async function deleteMatch(id: number): Promise<boolean> {
  try {
    await adminFetch(`/api/admin/matches/${id}`, { method: "DELETE" });
    toast({ title: "Match Deleted", description: "The match has been deleted." });
    return true;
  } catch (err) {
    if (!isMatchInUse(err)) {
      toastError(errorText(err, "Failed to delete match"));
      return false;
    }
    toast({
      title: "Cannot Delete",
      description:
        "This match is being used by one or more competitions. You must delete those competitions first.",
      variant: "destructive",
    });
    return false;
  }
}
