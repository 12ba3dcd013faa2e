/** 'Create Sample Teams': the four sample Premier League teams, offered on an empty site only. */
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";

export const SAMPLE_TEAMS = [
  { name: "Arsenal", shortName: "ARS" },
  { name: "Chelsea", shortName: "CHE" },
  { name: "Liverpool", shortName: "LIV" },
  { name: "Manchester City", shortName: "MCI" },
].map((t) => ({ ...t, league: "PREMIER_LEAGUE", logoUrl: null }));

/**
 * True when the admin screens offer 'Create Sample Teams': only while the site has no club at
 * all (the list the server answered is empty). A populated site adds clubs on the Clubs screen.
 */
export function offersSampleTeams(clubs: readonly unknown[]): boolean {
  return clubs.length === 0;
}

/** The sample teams not created yet (compared by name). */
export function missingSampleTeams(existing: { name: string }[]): typeof SAMPLE_TEAMS {
  const names = new Set(existing.map((t) => t.name.toLowerCase()));
  return SAMPLE_TEAMS.filter((t) => !names.has(t.name.toLowerCase()));
}

/**
 * Creates the sample Premier League teams that do not exist yet (POST /api/admin/teams each);
 * resolves true when all were made.
 */
export async function createSampleTeams(existing: { name: string }[]): Promise<boolean> {
  const missing = missingSampleTeams(existing);
  try {
    for (const team of missing) {
      await adminFetch("/api/admin/teams", { method: "POST", body: team });
    }
    toast({
      title: "Teams Created",
      description: `Created ${missing.length} sample Premier League teams`,
    });
    return true;
  } catch (err) {
    toastError(errorText(err, "Failed to create teams"));
    return false;
  }
}
