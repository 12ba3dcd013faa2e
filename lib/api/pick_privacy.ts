/**
 * Picks stay private until they lock: nobody but the owner (edit link, My entries) sees a pick
 * before it has locked. In a round contest a pick locks at its own match's kick-off; otherwise
 * at the deadline (or when the contest went live). Every public surface of a team (details,
 * players, team dialog, share and preview images, confirmation page) asks this one function.
 */
import { competitionMatches } from "@/lib/db/rounds.ts";
import { lockedBecause } from "@/lib/domain/competition.ts";
import { isRoundContest, pickLock } from "@/lib/domain/rounds.ts";
import type { Competition, Player } from "@/lib/domain/types.ts";

/** What is shown in place of a pick that has not locked. */
export const HIDDEN_PICK = "Hidden until kick-off";

/**
 * The ids of `players` whose pick has locked at `now` (they may be shown to anyone).
 * @example const shown = await lockedPickIds(kv, competition, players); // Set {12, 14}
 */
export async function lockedPickIds(
  kv: Deno.Kv,
  competition: Competition,
  players: readonly Pick<Player, "id" | "teamId">[],
  now = new Date(),
): Promise<Set<number>> {
  if (!isRoundContest(competition)) {
    const locked = lockedBecause(competition, now) !== null;
    return new Set(locked ? players.map((p) => p.id) : []);
  }
  if (competition.status === "COMPLETED") return new Set(players.map((p) => p.id));
  const matches = await competitionMatches(kv, competition);
  return new Set(
    players.filter((p) => pickLock(matches, p.teamId, now)?.locked === true).map((p) => p.id),
  );
}
