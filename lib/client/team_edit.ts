/** The browser side of a team's private edit link: saving the changed team. */
import { apiFetch } from "@/lib/client/api.ts";

/** The entry as the edit link shows it after a save. */
export interface EditedTeam {
  teamId: string;
  teamName: string;
  playerIds: number[];
  revision: number;
  editedAt: string | null;
  locked: string | null;
}

/** Saves the team on the revision it was edited from (409 when changed meanwhile or locked). */
export function saveTeam(
  token: string,
  team: {
    teamName: string;
    playerIds: number[];
    revision: number;
    captainId?: number;
    viceCaptainId?: number;
  },
): Promise<EditedTeam> {
  return apiFetch<EditedTeam>(`/api/team-edits/${encodeURIComponent(token)}`, {
    method: "PUT",
    json: team,
  });
}
