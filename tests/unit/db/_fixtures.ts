/** Small builders for the lib/db unit tests (each test opens its own in-memory KV). */
import { addCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { type CompetitionInput, createCompetition } from "@/lib/db/competitions.ts";
import { createPlayer } from "@/lib/db/players.ts";
import { createTeam } from "@/lib/db/teams.ts";
import type { Competition, Player, Position, Team } from "@/lib/domain/types.ts";

export const HOUR = 60 * 60 * 1000;

/** A team named `name` in the Premier League. */
export function makeTeam(kv: Deno.Kv, name: string, shortName = name.slice(0, 3).toUpperCase()) {
  return createTeam(kv, { name, shortName, league: "PREMIER_LEAGUE", logoUrl: null });
}

/** A competition open for entries (deadline in one day) unless overridden. */
export function makeCompetition(
  kv: Deno.Kv,
  overrides: Partial<CompetitionInput> = {},
): Promise<Competition> {
  return createCompetition(kv, {
    name: "Test Cup",
    league: "PREMIER_LEAGUE",
    entryFee: 10,
    prizePool: 100,
    deadline: new Date(Date.now() + 24 * HOUR).toISOString(),
    ...overrides,
  });
}

export interface Squad {
  teams: Team[];
  players: Player[];
  /** A valid 5-player pick: GK, DEF, MID, MID, FWD over two teams. */
  validPick: number[];
}

/**
 * Two teams of 6 players each (GK, DEF, DEF, MID, MID, FWD), salary 5000 each, all added to the
 * competition.
 */
export async function makeSquad(kv: Deno.Kv, cid: number): Promise<Squad> {
  const shape: Position[] = ["GK", "DEF", "DEF", "MID", "MID", "FWD"];
  const teams = [await makeTeam(kv, "Alpha FC"), await makeTeam(kv, "Beta Town")];
  const players: Player[] = [];
  for (const team of teams) {
    for (const [i, position] of shape.entries()) {
      players.push(
        await createPlayer(kv, {
          name: `${team.shortName} ${position} ${i}`,
          position,
          teamId: team.id,
          salary: 5000,
        }),
      );
    }
  }
  await addCompetitionPlayers(kv, cid, players.map((p) => p.id));
  const [a, b] = [players.slice(0, 6), players.slice(6)];
  return { teams, players, validPick: [a[0].id, a[1].id, a[3].id, b[3].id, b[5].id] };
}

/** Every key under a prefix. */
export async function keysUnder(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix })) out.push(entry.key);
  return out;
}
