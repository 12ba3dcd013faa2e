/**
 * Round fixtures: matches between fresh clubs (five players each: GK, DEF, DEF, MID, FWD), a
 * round of them and a contest on it with every player of its clubs.
 */
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { createCompetition } from "@/lib/db/competitions.ts";
import { createMatch } from "@/lib/db/matches.ts";
import { createRound } from "@/lib/db/rounds.ts";
import type { CompetitionInput } from "@/lib/db/competitions.ts";
import type { Competition, Match, Player, Position, Round, Team } from "@/lib/domain/types.ts";
import { makePlayer, makeTeam } from "./fixtures.ts";

const SQUAD: Position[] = ["GK", "DEF", "DEF", "MID", "FWD"];

/** A round contest with its round, matches (by kick-off), clubs and players. */
export interface RoundContest extends Competition {
  round: Round;
  matches: Match[];
  teams: Team[];
  players: Player[];
}

/** A round of matches kicking off at `kickoffs` (each between two new clubs). */
export async function makeRound(
  kv: Deno.Kv,
  kickoffs: Date[],
): Promise<{ round: Round; matches: Match[]; teams: Team[]; players: Player[] }> {
  const teams: Team[] = [];
  const players: Player[] = [];
  const matches: Match[] = [];
  for (const kickoff of kickoffs) {
    const pair = [await makeTeam(kv), await makeTeam(kv)];
    for (const team of pair) {
      for (const position of SQUAD) {
        players.push(
          await makePlayer(kv, {
            teamId: team.id,
            position,
            name: `${position} ${team.shortName}`,
          }),
        );
      }
    }
    teams.push(...pair);
    matches.push(
      await createMatch(kv, {
        homeTeamId: pair[0].id,
        awayTeamId: pair[1].id,
        league: "PREMIER_LEAGUE",
        kickoffTime: kickoff.toISOString(),
        stadium: "Ground",
      }, new Date(Math.min(Date.now(), kickoff.getTime() - 60_000))),
    );
  }
  const round = await createRound(kv, {
    name: "Premier League, Matchday 14",
    matchIds: matches.map((m) => m.id),
  });
  return { round, matches, teams, players };
}

/** A contest (fee 10 USD) on a new round kicking off at `kickoffs`, with all its players. */
export async function makeRoundContest(
  kv: Deno.Kv,
  kickoffs: Date[],
  overrides: Partial<CompetitionInput> = {},
): Promise<RoundContest> {
  const { round, matches, teams, players } = await makeRound(kv, kickoffs);
  const competition = await createCompetition(kv, {
    name: `Round contest ${round.id}`,
    league: "PREMIER_LEAGUE",
    entryFee: 10,
    prizePool: 100,
    roundId: round.id,
    ...overrides,
  });
  await addCompetitionPlayers(kv, competition.id, players.map((p) => p.id));
  return { ...competition, round, matches, teams, players };
}

/** The player of club `team` at `position` (the first, for DEF). */
export function playerOf(c: { players: Player[] }, team: Team, position: Position): Player {
  return c.players.find((p) => p.teamId === team.id && p.position === position)!;
}
