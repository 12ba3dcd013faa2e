/** Deleting a catalogue record (player, club) with the admin screens' toasts. */
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";

/** How long a refusal stays on screen: long enough to read the reason. */
const REFUSAL_MS = 10_000;

export interface DeleteTexts {
  /** Success toast title, e.g. "Player Deleted". */
  deleted: string;
  /** Success toast description. */
  description: string;
  /** Title of the toast that gives the server's reason for a refusal (409). */
  refused: string;
  /** Error toast text when the server gives no message. */
  failed: string;
}

/**
 * DELETEs `path`; resolves true on success. A 409 (still in use) shows the server's reason in a
 * destructive toast titled `texts.refused`; other failures the usual 'Error' toast.
 * @example await deleteRecord("/api/admin/players/7", { deleted: "Player Deleted", … })
 */
export async function deleteRecord(path: string, texts: DeleteTexts): Promise<boolean> {
  try {
    await adminFetch(path, { method: "DELETE" });
    toast({ title: texts.deleted, description: texts.description });
    return true;
  } catch (err) {
    const reason = err instanceof ApiError && err.status === 409 ? err.serverMessage : null;
    if (reason) {
      toast({
        title: texts.refused,
        description: reason,
        variant: "destructive",
        duration: REFUSAL_MS,
      });
    } else toastError(errorText(err, texts.failed));
    return false;
  }
}

/** Deletes a player nobody picked (the server refuses one in an entry, with the reason). */
export function deletePlayer(player: { id: number; name: string }): Promise<boolean> {
  return deleteRecord(`/api/admin/players/${player.id}`, {
    deleted: "Player Deleted",
    description: `${player.name} has been deleted.`,
    refused: "Cannot Delete Player",
    failed: "Failed to delete player",
  });
}

/** Deletes a club without players or matches (the server refuses otherwise, with the reason). */
export function deleteClub(club: { id: number; name: string }): Promise<boolean> {
  return deleteRecord(`/api/admin/teams/${club.id}`, {
    deleted: "Club Deleted",
    description: `${club.name} has been deleted.`,
    refused: "Cannot Delete Club",
    failed: "Failed to delete club",
  });
}
