/**
 * The admin feed page's deliveries with names: an operator reads "Riverside Rovers vs
 * Kingsbridge Athletic · Jack Fenwick", not "match 1 · player 10". A match or player deleted since
 * keeps its number.
 */
import { getMatch, withTeams } from "@/lib/db/matches.ts";
import { getPlayersByIds } from "@/lib/db/players.ts";
import type { FeedLogEntry } from "@/lib/domain/feed.ts";

export interface NamedDelivery extends FeedLogEntry {
  /** "Home vs Away", or "match 7" when the match is gone. */
  matchLabel: string;
  /** The player's name, "player 10" when he is gone, null for a match-level event. */
  playerName: string | null;
}

/** `rows` with the names of their matches and players, read once for all of them. */
export async function namedDeliveries(
  kv: Deno.Kv,
  rows: FeedLogEntry[],
): Promise<NamedDelivery[]> {
  const matchIds = [...new Set(rows.map((r) => r.matchId))];
  const playerIds = [...new Set(rows.flatMap((r) => r.playerId === null ? [] : [r.playerId]))];
  const [found, players] = await Promise.all([
    Promise.all(matchIds.map((id) => getMatch(kv, id))),
    getPlayersByIds(kv, playerIds),
  ]);
  const matches = await withTeams(kv, found.filter((m) => m !== null));
  const matchLabels = new Map(
    matches.map((m) => [
      m.id,
      `${m.homeTeam?.name ?? `Team ${m.homeTeamId}`} vs ${
        m.awayTeam?.name ?? `Team ${m.awayTeamId}`
      }`,
    ]),
  );
  const playerNames = new Map(players.map((p) => [p.id, p.name]));
  return rows.map((r) => ({
    ...r,
    matchLabel: matchLabels.get(r.matchId) ?? `match ${r.matchId}`,
    playerName: r.playerId === null ? null : playerNames.get(r.playerId) ?? `player ${r.playerId}`,
  }));
}
