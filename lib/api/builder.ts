/** What the team builder shows of a competition's match or round: the clubs and the kick-offs. */
import { getMatchWithTeams, type MatchWithTeams, withTeams } from "@/lib/db/matches.ts";
import { competitionMatches } from "@/lib/db/rounds.ts";
import type { BuilderFixture } from "@/lib/domain/live.ts";
import type { Competition } from "@/lib/domain/types.ts";

function toFixture(match: MatchWithTeams): BuilderFixture {
  const short = (team: typeof match.homeTeam, fallback: string) =>
    team?.shortName || team?.name || fallback;
  return {
    homeTeamId: match.homeTeamId,
    awayTeamId: match.awayTeamId,
    homeShortName: short(match.homeTeam, "Home"),
    awayShortName: short(match.awayTeam, "Away"),
    kickoffTime: match.kickoffTime,
    matchId: match.id,
    status: match.status,
  };
}

/** The competition's match for the builder's rows, or null when it has none. */
export async function builderFixture(
  kv: Deno.Kv,
  competition: Pick<Competition, "matchId">,
): Promise<BuilderFixture | null> {
  if (competition.matchId === null || competition.matchId === undefined) return null;
  const match = await getMatchWithTeams(kv, competition.matchId);
  return match ? toFixture(match) : null;
}

/** The round's matches for the builder (each row's fixture, the match filter), or null. */
export async function builderFixtures(
  kv: Deno.Kv,
  competition: Pick<Competition, "matchId" | "roundId">,
): Promise<BuilderFixture[] | null> {
  if (typeof competition.roundId !== "number") return null;
  return (await withTeams(kv, await competitionMatches(kv, competition))).map(toFixture);
}

/** The builder's view of a competition's games: `fixture` (one match) or `fixtures` (a round). */
export async function builderGames(
  kv: Deno.Kv,
  competition: Pick<Competition, "matchId" | "roundId" | "lateSwap">,
) {
  return {
    fixture: await builderFixture(kv, competition),
    fixtures: await builderFixtures(kv, competition),
    lateSwap: competition.lateSwap === true && typeof competition.roundId === "number",
  };
}
