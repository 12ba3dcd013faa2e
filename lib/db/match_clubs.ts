/**
 * Which players play in a match: the check that a competition with a match offers only its two
 * clubs' players (used by competition_players.ts when players are added, and by the migration in
 * match_players.ts), in a module of its own so neither imports the other.
 */
import type { Competition, Match, Player, Round, Team } from "@/lib/domain/types.ts";
import { getManyValues } from "@/lib/store/util.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { keys } from "@/lib/store/keys.ts";
import { getTeamsByIds } from "./teams.ts";

/** The players of `players` who are not of the match's two clubs, and the match's clubs. */
export async function outsiders(kv: Deno.Kv, match: Match, players: Player[]) {
  const clubs = new Set([match.homeTeamId, match.awayTeamId]);
  const off = players.filter((p) => !clubs.has(p.teamId));
  const teams = await getTeamsByIds(kv, [
    match.homeTeamId,
    match.awayTeamId,
    ...off.map((p) => p.teamId),
  ]);
  const short = (id: number) => (teams.get(id) as Team | undefined)?.shortName ?? `club ${id}`;
  return {
    off,
    named: off.map((p) => `${p.name} (${short(p.teamId)})`),
    fixture: `${short(match.homeTeamId)} v ${short(match.awayTeamId)}`,
  };
}

/**
 * A 400 on `playerIds` naming the first player (and how many others) not of the match's two
 * clubs, when the competition has a match.
 * @example await assertPlayersInMatch(kv, competition, players); // "Jordan Radcliffe (KBA) does not play in NGU v ASH…"
 */
export async function assertPlayersInMatch(
  kv: Deno.Kv,
  competition: Pick<Competition, "matchId" | "roundId">,
  players: Player[],
): Promise<void> {
  if (typeof competition.roundId === "number") {
    return assertPlayersInRound(kv, competition, players);
  }
  if (competition.matchId === null) return;
  const match = (await kv.get<Match>(keys.match(competition.matchId))).value;
  if (!match) return;
  const { named, fixture } = await outsiders(kv, match, players);
  if (named.length === 0) return;
  const more = named.length > 1 ? ` (and ${named.length - 1} more)` : "";
  throw fieldError(
    "playerIds",
    `${named[0]}${more} does not play in this competition's match (${fixture}): ` +
      "only the players of its two clubs can be added.",
  );
}

/**
 * A 400 on `playerIds` naming the first player (and how many others) whose club plays in none
 * of the round's matches, when the competition spans a round.
 */
async function assertPlayersInRound(
  kv: Deno.Kv,
  competition: Pick<Competition, "matchId" | "roundId">,
  players: Player[],
): Promise<void> {
  const round = (await kv.get<Round>(keys.round(competition.roundId!))).value;
  if (!round) return;
  const matches = await getManyValues<Match>(kv, round.matchIds.map(keys.match));
  const clubs = new Set(matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
  const off = players.filter((p) => !clubs.has(p.teamId));
  if (off.length === 0) return;
  const teams = await getTeamsByIds(kv, off.map((p) => p.teamId));
  const named = off.map((p) =>
    `${p.name} (${teams.get(p.teamId)?.shortName ?? `club ${p.teamId}`})`
  );
  const more = named.length > 1 ? ` (and ${named.length - 1} more)` : "";
  throw fieldError(
    "playerIds",
    `${named[0]}${more} does not play in this competition's round (${round.name}): ` +
      "only the players of its matches' clubs can be added.",
  );
}
