/** Team calls of the match form: the four sample Premier League teams. */
import { toast } from "../toast.ts";
import { adminFetch, errorText } from "./admin_api.ts";

export const SAMPLE_TEAMS = [
  { name: "Arsenal", shortName: "ARS" },
  { name: "Chelsea", shortName: "CHE" },
  { name: "Liverpool", shortName: "LIV" },
  { name: "Manchester City", shortName: "MCI" },
].map((t) => ({ ...t, league: "PREMIER_LEAGUE", logoUrl: null }));

/** Creates the four sample teams (POST /api/admin/teams each); resolves true when all were made. */
export async function createSampleTeams(): Promise<boolean> {
  try {
    for (const team of SAMPLE_TEAMS) {
      await adminFetch("/api/admin/teams", { method: "POST", body: team });
    }
    toast({ title: "Teams Created", description: "Created 4 sample Premier League teams" });
    return true;
  } catch (err) {
    toast({
      title: "Error",
      description: errorText(err, "Failed to create teams"),
      variant: "destructive",
    });
    return false;
  }
}
