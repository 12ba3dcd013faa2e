/** Real-world clubs (the API calls them "teams"). */
import type { Match, Team } from "@/lib/domain/types.ts";
import { ConflictError, NotFoundError } from "@/lib/domain/errors.ts";
import { createWithId } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { touch } from "@/lib/store/touch.ts";
import { getManyValues, listKeys, listValues, retryAtomic } from "@/lib/store/util.ts";
import { bumpCatalog } from "@/lib/store/catalog.ts";

export type TeamInput = Omit<Team, "id">;

/** Creates a team with the next id. */
export function createTeam(kv: Deno.Kv, input: TeamInput): Promise<Team> {
  return createWithId(kv, "teams", (id, op) => {
    const team: Team = { ...input, logoUrl: input.logoUrl ?? null, id };
    touch(op, "catalog").check({ key: keys.team(id), versionstamp: null }).set(keys.team(id), team);
    return team;
  });
}

/** The team with this id, or null. */
export async function getTeam(kv: Deno.Kv, id: number): Promise<Team | null> {
  return (await kv.get<Team>(keys.team(id))).value;
}

/** Every team, sorted by name. */
export async function listTeams(kv: Deno.Kv): Promise<Team[]> {
  const teams = await listValues<Team>(kv, keys.teams());
  return teams.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Changes some fields of a team; NotFoundError when it does not exist. */
export function updateTeam(
  kv: Deno.Kv,
  id: number,
  patch: Partial<TeamInput>,
): Promise<Team> {
  return retryAtomic("update the team", async () => {
    const current = await kv.get<Team>(keys.team(id));
    if (!current.value) throw new NotFoundError("Team not found");
    const team: Team = { ...current.value, ...patch, id };
    const res = await bumpCatalog(kv.atomic().check(current).set(keys.team(id), team)).commit();
    return res.ok ? team : undefined;
  });
}

/** The teams with these ids, keyed by id (unknown ids are left out). */
export async function getTeamsByIds(
  kv: Deno.Kv,
  ids: Iterable<number>,
): Promise<Map<number, Team>> {
  const unique = [...new Set(ids)];
  const teams = await getManyValues<Team>(kv, unique.map(keys.team));
  return new Map(teams.map((t) => [t.id, t]));
}

/**
 * Deletes a club nobody uses; ConflictError saying what still uses it (its players, or matches).
 * The record's versionstamp is checked, so a concurrent edit makes this retry and look again.
 */
export function deleteTeam(kv: Deno.Kv, id: number): Promise<void> {
  return retryAtomic("delete the team", async () => {
    const current = await kv.get<Team>(keys.team(id));
    if (!current.value) throw new NotFoundError("Team not found");
    const players = await listKeys(kv, keys.playersByTeam(id));
    if (players.length > 0) {
      throw new ConflictError(
        `${current.value.name} still has ${players.length} player${
          players.length === 1 ? "" : "s"
        }: delete or move them first.`,
      );
    }
    const matches = (await listValues<Match>(kv, keys.matches()))
      .filter((m) => m.homeTeamId === id || m.awayTeamId === id);
    if (matches.length > 0) {
      throw new ConflictError(
        `${current.value.name} plays in ${matches.length} match${
          matches.length === 1 ? "" : "es"
        }: delete those matches first.`,
      );
    }
    const res = await touch(kv.atomic(), "catalog").check(current).delete(keys.team(id)).commit();
    return res.ok ? true : undefined;
  }).then(() => undefined);
}
