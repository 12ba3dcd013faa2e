/** Reads the matches a contest's picks play in, for the pick clock (lib/domain/match_clock.ts). */
import { type PickClock, singleMatchClock } from "@/lib/domain/match_clock.ts";
import type { Competition, Match } from "@/lib/domain/types.ts";
import { keys } from "@/lib/store/keys.ts";

/**
 * The clock of `competition`'s picks at `now`: a contest on one match reads it once (every pick
 * shares it); a contest on no match follows its own status.
 * @example (await getPickClock(kv, competition)).phaseOf(playerId) // "IN_PLAY"
 */
export async function getPickClock(
  kv: Deno.Kv,
  competition: Pick<Competition, "status" | "matchId">,
  now = new Date(),
): Promise<PickClock> {
  const match = competition.matchId == null
    ? null
    : (await kv.get<Match>(keys.match(competition.matchId))).value;
  return singleMatchClock(competition, match, now);
}
