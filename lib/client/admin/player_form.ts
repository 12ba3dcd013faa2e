/** The Add/Edit Player form of the team players dialog, validated by the shared player schemas. */
import { playerInputSchema } from "@/lib/domain/schemas/catalog.ts";
import type { Player } from "@/lib/domain/types.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";

export interface PlayerFormValues {
  name: string;
  position: string;
  salary: string;
  imageUrl: string;
  goals: string;
  assists: string;
  cleanSheets: string;
}

/** A new player: default salary 1000, zero stats. */
export function emptyPlayerValues(): PlayerFormValues {
  return {
    name: "",
    position: "",
    salary: "1000",
    imageUrl: "",
    goals: "0",
    assists: "0",
    cleanSheets: "0",
  };
}

/** The form values of a saved player. */
export function playerToValues(p: Player): PlayerFormValues {
  return {
    name: p.name,
    position: p.position,
    salary: String(p.salary),
    imageUrl: p.imageUrl ?? "",
    goals: String(p.goals),
    assists: String(p.assists),
    cleanSheets: String(p.cleanSheets),
  };
}

/**
 * Validates and saves a player of `teamId` (POST, or PATCH when `playerId` is given) with the
 * toasts of each outcome; resolves true when saved.
 */
export async function savePlayer(
  teamId: number,
  values: PlayerFormValues,
  playerId: number | null,
): Promise<boolean> {
  const parsed = playerInputSchema.safeParse({ ...values, teamId });
  if (!parsed.success) {
    toastError(parsed.error.issues[0].message);
    return false;
  }
  const editing = playerId !== null;
  try {
    await adminFetch(editing ? `/api/admin/players/${playerId}` : "/api/admin/players", {
      method: editing ? "PATCH" : "POST",
      body: parsed.data,
    });
    toast({
      title: editing ? "Player Updated" : "Player Created",
      description: `${parsed.data.name} has been saved.`,
    });
    return true;
  } catch (err) {
    toastError(errorText(err, editing ? "Failed to update player" : "Failed to create player"));
    return false;
  }
}
