/** Adds, removes and re-prices the players of a competition, with a toast for each outcome. */
import { competitionSalarySchema } from "@/lib/domain/schemas/catalog.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { adminMoney } from "@/lib/client/admin/labels.ts";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";

function noneSelected(): false {
  toast({
    title: "No Players Selected",
    description: "Please select at least one player.",
    variant: "destructive",
  });
  return false;
}

const plural = (n: number) => `${n} player${n === 1 ? "" : "s"}`;

/** Adds (POST) or removes (DELETE) players; resolves true on success. */
export async function changeCompetitionPlayers(
  competitionId: number,
  playerIds: number[],
  action: "add" | "remove",
): Promise<boolean> {
  if (playerIds.length === 0) return noneSelected();
  const adding = action === "add";
  try {
    await adminFetch(`/api/admin/competitions/${competitionId}/players`, {
      method: adding ? "POST" : "DELETE",
      body: { playerIds },
    });
    toast(
      adding
        ? {
          title: "Players Added",
          description: `Added ${plural(playerIds.length)} to the competition`,
        }
        : {
          title: "Players Removed",
          description: `Removed ${plural(playerIds.length)} from the competition`,
        },
    );
    return true;
  } catch (err) {
    toastError(errorText(err, adding ? "Failed to add players" : "Failed to remove players"));
    return false;
  }
}

/**
 * Saves what a player costs in this competition only (other competitions keep their price);
 * resolves true on success.
 */
export async function updateSalary(
  competitionId: number,
  player: PlayerWithTeam,
  salary: number,
): Promise<boolean> {
  const parsed = competitionSalarySchema.safeParse({ salary });
  if (!parsed.success) {
    toastError(parsed.error.issues[0].message);
    return false;
  }
  try {
    await adminFetch(`/api/admin/competitions/${competitionId}/players/${player.id}`, {
      method: "PATCH",
      body: { salary },
    });
    toast({
      title: "Salary Updated",
      description: `${player.name} now costs ${adminMoney(salary)}`,
    });
    return true;
  } catch (err) {
    toastError(errorText(err, "Failed to update player salary"));
    return false;
  }
}
