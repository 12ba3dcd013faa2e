/** Reads the matches a contest's picks play in, for the pick clock (lib/domain/match_clock.ts). */
import { type PickClock, pickClock, singleMatchClock } from "@/lib/domain/match_clock.ts";
import { matchOfClub } from "@/lib/domain/rounds.ts";
import type { Competition, Match, Player } from "@/lib/domain/types.ts";
import { keys } from "@/lib/store/keys.ts";
import { getManyValues, listKeys } from "@/lib/store/util.ts";
import { competitionMatches } from "./rounds.ts";

/**
 * The clock of `competition`'s picks at `now`: a contest on one match reads it once (every pick
 * shares it); a round contest reads its matches and each player's club (a pick follows its own
 * match); a contest on no match follows its own status.
 * @example (await getPickClock(kv, competition)).phaseOf(playerId) // "IN_PLAY"
 */
export async function getPickClock(
  kv: Deno.Kv,
  competition: Pick<Competition, "id" | "status" | "matchId" | "roundId">,
  now = new Date(),
): Promise<PickClock> {
  if (typeof competition.roundId === "number") {
    const matches = await competitionMatches(kv, competition);
    const ids = (await listKeys(kv, keys.competitionPlayers(competition.id)))
      .map((key) => key[2] as number);
    const players = await getManyValues<Player>(kv, ids.map(keys.player));
    const clubOf = new Map(players.map((p) => [p.id, p.teamId]));
    const matchOf = (playerId: number) => {
      const club = clubOf.get(playerId);
      return club === undefined ? null : matchOfClub(matches, club);
    };
    return pickClock(competition, matches, matchOf, now);
  }
  const match = competition.matchId == null
    ? null
    : (await kv.get<Match>(keys.match(competition.matchId))).value;
  return singleMatchClock(competition, match, now);
}
