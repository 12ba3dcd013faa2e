/** What the team builder shows of a competition's match: the clubs and the kick-off. */
import { getMatchWithTeams } from "@/lib/db/matches.ts";
import type { BuilderFixture } from "@/lib/domain/live.ts";
import type { Competition } from "@/lib/domain/types.ts";

/** The competition's match for the builder's rows, or null when it has none. */
export async function builderFixture(
  kv: Deno.Kv,
  competition: Pick<Competition, "matchId">,
): Promise<BuilderFixture | null> {
  if (competition.matchId === null || competition.matchId === undefined) return null;
  const match = await getMatchWithTeams(kv, competition.matchId);
  if (!match) return null;
  const short = (team: typeof match.homeTeam, fallback: string) =>
    team?.shortName || team?.name || fallback;
  return {
    homeTeamId: match.homeTeamId,
    awayTeamId: match.awayTeamId,
    homeShortName: short(match.homeTeam, "Home"),
    awayShortName: short(match.awayTeam, "Away"),
    kickoffTime: match.kickoffTime,
  };
}
