/** Match calls of the admin screens with their SPEC §8 toasts. */
import { toast } from "../toast.ts";
import { AdminApiError, adminFetch, errorText } from "./admin_api.ts";

/** True when a delete failure says the match is used by a competition. */
export function isMatchInUse(err: unknown): boolean {
  return err instanceof AdminApiError && /competition/i.test(err.serverMessage ?? "");
}

/** Deletes a match; resolves true on success. */
export async function deleteMatch(id: number): Promise<boolean> {
  try {
    await adminFetch(`/api/admin/matches/${id}`, { method: "DELETE" });
    toast({ title: "Match Deleted", description: "The match has been deleted." });
    return true;
  } catch (err) {
    toast(
      isMatchInUse(err)
        ? {
          title: "Cannot Delete",
          description:
            "This match is being used by one or more competitions. You must delete those competitions first.",
          variant: "destructive",
        }
        : {
          title: "Error",
          description: errorText(err, "Failed to delete match"),
          variant: "destructive",
        },
    );
    return false;
  }
}
