/** Which players can be picked in a competition: `["competition_players", cid, playerId]`. */
import type { Competition, Player } from "../domain/types.ts";
import { fieldError, NotFoundError } from "../domain/errors.ts";
import { keys } from "./keys.ts";
import { bumpLive } from "./live.ts";
import { getPlayersByIds, listPlayers, type PlayerWithTeam, withTeam } from "./players.ts";
import { chunk, listValues, retryAtomic } from "./util.ts";

async function assertPlayersExist(kv: Deno.Kv, playerIds: number[]): Promise<number[]> {
  const unique = [...new Set(playerIds)];
  const found = new Set((await getPlayersByIds(kv, unique)).map((p) => p.id));
  const unknown = unique.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw fieldError("playerIds", `Unknown player ids: ${unknown.join(", ")}`);
  }
  return unique;
}

/** Applies `mutate` to every player id, one atomic per chunk, each checking the competition exists. */
async function writeLinks(
  kv: Deno.Kv,
  cid: number,
  playerIds: number[],
  mutate: (op: Deno.AtomicOperation, playerId: number) => void,
): Promise<void> {
  for (const ids of chunk(playerIds)) {
    await retryAtomic("change the competition players", async () => {
      const competition = await kv.get<Competition>(keys.competition(cid));
      if (!competition.value) throw new NotFoundError("Competition not found");
      const op = kv.atomic().check(competition);
      for (const id of ids) mutate(op, id);
      const res = await bumpLive(op, cid).commit();
      return res.ok ? true : undefined;
    });
  }
}

/** Makes players pickable in a competition; returns how many were not already in it. */
export async function addCompetitionPlayers(
  kv: Deno.Kv,
  cid: number,
  playerIds: number[],
): Promise<number> {
  const ids = await assertPlayersExist(kv, playerIds);
  const current = await listCompetitionPlayerIds(kv, cid);
  await writeLinks(kv, cid, ids, (op, id) => op.set(keys.competitionPlayer(cid, id), id));
  return ids.filter((id) => !current.has(id)).length;
}

/** Takes players out of a competition; returns how many were in it. */
export async function removeCompetitionPlayers(
  kv: Deno.Kv,
  cid: number,
  playerIds: number[],
): Promise<number> {
  const ids = await assertPlayersExist(kv, playerIds);
  const current = await listCompetitionPlayerIds(kv, cid);
  await writeLinks(kv, cid, ids, (op, id) => op.delete(keys.competitionPlayer(cid, id)));
  return ids.filter((id) => current.has(id)).length;
}

/** The ids of the players of a competition. */
export async function listCompetitionPlayerIds(kv: Deno.Kv, cid: number): Promise<Set<number>> {
  return new Set(await listValues<number>(kv, keys.competitionPlayers(cid)));
}

function bySalaryDesc(a: Player, b: Player): number {
  return b.salary - a.salary || a.name.localeCompare(b.name) || a.id - b.id;
}

/** The players of a competition with their teams, by salary descending. */
export async function listCompetitionPlayers(
  kv: Deno.Kv,
  cid: number,
): Promise<PlayerWithTeam[]> {
  const players = await getPlayersByIds(kv, await listCompetitionPlayerIds(kv, cid));
  return withTeam(kv, players.sort(bySalaryDesc));
}

/** Every player not yet in the competition, with team, by salary descending. */
export async function listAvailablePlayers(kv: Deno.Kv, cid: number): Promise<PlayerWithTeam[]> {
  const inIt = await listCompetitionPlayerIds(kv, cid);
  const players = (await listPlayers(kv)).filter((p) => !inIt.has(p.id));
  return withTeam(kv, players.sort(bySalaryDesc));
}
