/** Real players, each belonging to one team (index `["players_by_team", teamId, playerId]`). */
import type { Competition, Entry, Player, Team } from "@/lib/domain/types.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { createWithId } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { touch } from "@/lib/store/touch.ts";
import { getTeam, getTeamsByIds } from "./teams.ts";
import { deleteKeys, getManyValues, listValues, retryAtomic } from "@/lib/store/util.ts";
import { bumpCatalog } from "@/lib/store/catalog.ts";

/** What a create needs: name, position and team; the rest takes the defaults. */
export type PlayerInput =
  & Pick<Player, "name" | "position" | "teamId">
  & Partial<Omit<Player, "id" | "name" | "position" | "teamId">>;

export type PlayerWithTeam = Player & { team: Team | null };

/** Defaults: salary 1000, no image, zero season stats. */
function withDefaults(input: PlayerInput, id: number): Player {
  return {
    id,
    name: input.name,
    position: input.position,
    teamId: input.teamId,
    imageUrl: input.imageUrl ?? null,
    salary: input.salary ?? 1000,
    goals: input.goals ?? 0,
    assists: input.assists ?? 0,
    cleanSheets: input.cleanSheets ?? 0,
  };
}

async function assertTeamExists(kv: Deno.Kv, teamId: number): Promise<void> {
  if (await getTeam(kv, teamId)) return;
  throw fieldError("teamId", `Team ${teamId} does not exist.`);
}

/** Creates a player of an existing team (InvalidInputError for an unknown team). */
export async function createPlayer(kv: Deno.Kv, input: PlayerInput): Promise<Player> {
  await assertTeamExists(kv, input.teamId);
  return createWithId(kv, "players", (id, op) => {
    const player = withDefaults(input, id);
    touch(op, "catalog").check({ key: keys.player(id), versionstamp: null })
      .set(keys.player(id), player)
      .set(keys.playerByTeam(player.teamId, id), id);
    return player;
  });
}

/** The player with this id, or null. */
export async function getPlayer(kv: Deno.Kv, id: number): Promise<Player | null> {
  return (await kv.get<Player>(keys.player(id))).value;
}

/** Every player, by id. */
export function listPlayers(kv: Deno.Kv): Promise<Player[]> {
  return listValues<Player>(kv, keys.players());
}

/** The players of one team, by id. */
export async function listPlayersByTeam(kv: Deno.Kv, teamId: number): Promise<Player[]> {
  const ids = await listValues<number>(kv, keys.playersByTeam(teamId));
  return getPlayersByIds(kv, ids);
}

/** Changes some fields of a player, moving the team index when the team changes. */
export async function updatePlayer(
  kv: Deno.Kv,
  id: number,
  patch: Partial<Omit<Player, "id">>,
): Promise<Player> {
  if (patch.teamId !== undefined) await assertTeamExists(kv, patch.teamId);
  return retryAtomic("update the player", async () => {
    const current = await kv.get<Player>(keys.player(id));
    if (!current.value) throw new NotFoundError("Player not found");
    const player: Player = { ...current.value, ...patch, id };
    const op = bumpCatalog(kv.atomic().check(current).set(keys.player(id), player));
    if (player.teamId !== current.value.teamId) {
      op.delete(keys.playerByTeam(current.value.teamId, id))
        .set(keys.playerByTeam(player.teamId, id), id);
    }
    const res = await op.commit();
    return res.ok ? player : undefined;
  });
}

/** The players with these ids, in the order given (unknown ids left out). */
export function getPlayersByIds(kv: Deno.Kv, ids: Iterable<number>): Promise<Player[]> {
  return getManyValues<Player>(kv, [...ids].map(keys.player));
}

/** Adds each player's team (null when the team is gone). */
export async function withTeam(kv: Deno.Kv, players: Player[]): Promise<PlayerWithTeam[]> {
  const teams = await getTeamsByIds(kv, players.map((p) => p.teamId));
  return players.map((p) => ({ ...p, team: teams.get(p.teamId) ?? null }));
}

/**
 * The entry's players in pick order, each with its team and the salary it was paid at (for
 * entries made before prices were kept: the competition's salary, else the default).
 */
export async function entryPlayers(kv: Deno.Kv, entry: Entry): Promise<PlayerWithTeam[]> {
  const players = await getPlayersByIds(kv, entry.playerIds);
  const links = await getManyValues<{ playerId: number; salary?: unknown } | number>(
    kv,
    players.map((p) => keys.competitionPlayer(entry.competitionId, p.id)),
  );
  const linked = new Map<number, number>();
  for (const link of links) {
    if (typeof link === "object" && typeof link.salary === "number") {
      linked.set(link.playerId, link.salary);
    }
  }
  const paid = (p: Player) => entry.pickSalaries?.[entry.playerIds.indexOf(p.id)];
  return withTeam(
    kv,
    players.map((p) => ({ ...p, salary: paid(p) ?? linked.get(p.id) ?? p.salary })),
  );
}

/** How many entries picked this player (stops at `stopAt`: any count above 0 refuses a delete). */
async function countEntriesWithPlayer(kv: Deno.Kv, id: number, stopAt = 1000): Promise<number> {
  let count = 0;
  for await (const { value } of kv.list<Entry>({ prefix: ["entries"] })) {
    if (value.playerIds.includes(id) && ++count >= stopAt) break;
  }
  return count;
}

/**
 * Deletes a player that no entry picked, with the player's links to competitions and their
 * performances; ConflictError with the reason when an entry picked them (a paid team must keep
 * its players).
 */
export async function deletePlayer(kv: Deno.Kv, id: number): Promise<void> {
  const player = await getPlayer(kv, id);
  if (!player) throw new NotFoundError("Player not found");
  const entries = await countEntriesWithPlayer(kv, id);
  if (entries > 0) {
    throw new ConflictError(
      `${player.name} is in ${entries} ${entries === 1 ? "entry" : "entries"}, ` +
        "so they cannot be deleted. Remove them from competitions instead.",
    );
  }
  await retryAtomic("delete the player", async () => {
    const current = await kv.get<Player>(keys.player(id));
    if (!current.value) return true;
    const res = await touch(kv.atomic(), "catalog").check(current)
      .delete(keys.player(id))
      .delete(keys.playerByTeam(current.value.teamId, id))
      .commit();
    return res.ok ? true : undefined;
  });
  const cids = (await listValues<Competition>(kv, keys.competitions())).map((c) => c.id);
  await deleteKeys(
    kv,
    cids.flatMap((cid) => [keys.competitionPlayer(cid, id), keys.performance(cid, id)]),
    "catalog",
  );
}
