/**
 * Which players can be picked in a competition, and at what salary:
 * `["competition_players", cid, playerId]` → {playerId, salary}. The salary is copied from the
 * player's default when the player is added, so editing it in one competition never changes
 * another (nor the player's default).
 */
import { missingForTeam, rulesOf } from "@/lib/domain/team_rules.ts";
import type { Competition, Player } from "@/lib/domain/types.ts";
import { fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { getPlayersByIds, listPlayers, type PlayerWithTeam, withTeam } from "./players.ts";
import { chunk, getManyEntries, retryAtomic } from "@/lib/store/util.ts";
import { assertPlayersInMatch } from "./match_clubs.ts";
import { competitionMatches } from "./rounds.ts";

/** The link of a player to a competition: the salary it costs there. */
export interface CompetitionPlayerLink {
  playerId: number;
  salary: number;
}

/**
 * A stored link as a CompetitionPlayerLink, or null when it is an old bare player id (written
 * before salaries were per competition; see migrateCompetitionPlayerSalaries).
 */
function linkOf(value: unknown): CompetitionPlayerLink | null {
  if (typeof value !== "object" || value === null) return null;
  const link = value as Partial<CompetitionPlayerLink>;
  return typeof link.playerId === "number" && typeof link.salary === "number"
    ? { playerId: link.playerId, salary: link.salary }
    : null;
}

async function existingPlayers(kv: Deno.Kv, playerIds: number[]): Promise<Player[]> {
  const unique = [...new Set(playerIds)];
  const players = await getPlayersByIds(kv, unique);
  const found = new Set(players.map((p) => p.id));
  const unknown = unique.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw fieldError("playerIds", `Unknown player ids: ${unknown.join(", ")}`);
  }
  return players;
}

/** Applies `mutate` to every player, one atomic per chunk, each checking the competition exists. */
async function writeLinks(
  kv: Deno.Kv,
  cid: number,
  players: Player[],
  mutate: (op: Deno.AtomicOperation, player: Player) => void,
): Promise<void> {
  for (const batch of chunk(players)) {
    await retryAtomic("change the competition players", async () => {
      const competition = await kv.get<Competition>(keys.competition(cid));
      if (!competition.value) throw new NotFoundError("Competition not found");
      const op = kv.atomic().check(competition);
      for (const player of batch) mutate(op, player);
      const res = await bumpLive(op, cid).commit();
      return res.ok ? true : undefined;
    });
  }
}

/**
 * Makes players pickable in a competition at their default salary; players already in it keep
 * their competition salary. With a match set, a player of another club is refused (400 naming
 * the player). Returns how many were not already in it.
 */
export async function addCompetitionPlayers(
  kv: Deno.Kv,
  cid: number,
  playerIds: number[],
): Promise<number> {
  const players = await existingPlayers(kv, playerIds);
  const competition = (await kv.get<Competition>(keys.competition(cid))).value;
  if (!competition) throw new NotFoundError("Competition not found");
  await assertPlayersInMatch(kv, competition, players);
  const current = await listCompetitionPlayerIds(kv, cid);
  const added = players.filter((p) => !current.has(p.id));
  await writeLinks(kv, cid, added, (op, player) => {
    const link: CompetitionPlayerLink = { playerId: player.id, salary: player.salary };
    op.set(keys.competitionPlayer(cid, player.id), link);
  });
  return added.length;
}

/** Takes players out of a competition; returns how many were in it. */
export async function removeCompetitionPlayers(
  kv: Deno.Kv,
  cid: number,
  playerIds: number[],
): Promise<number> {
  const players = await existingPlayers(kv, playerIds);
  const current = await listCompetitionPlayerIds(kv, cid);
  await writeLinks(kv, cid, players, (op, p) => op.delete(keys.competitionPlayer(cid, p.id)));
  return players.filter((p) => current.has(p.id)).length;
}

/**
 * Sets what a player costs in one competition (other competitions and the player's default are
 * untouched; entries already paid keep the prices they were paid at). NotFoundError when the
 * player is not in the competition.
 */
export function setCompetitionPlayerSalary(
  kv: Deno.Kv,
  cid: number,
  playerId: number,
  salary: number,
): Promise<CompetitionPlayerLink> {
  const key = keys.competitionPlayer(cid, playerId);
  return retryAtomic("update the salary", async () => {
    const current = await kv.get(key);
    if (current.value === null) throw new NotFoundError("Player is not part of this competition");
    const link: CompetitionPlayerLink = { playerId, salary };
    const res = await bumpLive(kv.atomic().check(current).set(key, link), cid).commit();
    return res.ok ? link : undefined;
  });
}

/** The ids of the players of a competition. */
export async function listCompetitionPlayerIds(kv: Deno.Kv, cid: number): Promise<Set<number>> {
  const ids = new Set<number>();
  for await (const entry of kv.list({ prefix: keys.competitionPlayers(cid) })) {
    ids.add(entry.key[2] as number);
  }
  return ids;
}

/**
 * What these players cost in a competition, by player id; players not in it are left out. A link
 * that predates per-competition salaries gives the player's default.
 */
export async function competitionSalaries(
  kv: Deno.Kv,
  cid: number,
  players: Player[],
): Promise<Map<number, number>> {
  const links = await getManyEntries(kv, players.map((p) => keys.competitionPlayer(cid, p.id)));
  const salaries = new Map<number, number>();
  players.forEach((player, i) => {
    if (links[i].value === null) return;
    salaries.set(player.id, linkOf(links[i].value)?.salary ?? player.salary);
  });
  return salaries;
}

/**
 * Players as they are in a competition: each with the competition's salary. Players not in it
 * are left out, order kept.
 */
export async function inCompetition<P extends Player>(
  kv: Deno.Kv,
  cid: number,
  players: P[],
): Promise<P[]> {
  const salaries = await competitionSalaries(kv, cid, players);
  return players.flatMap((p) => salaries.has(p.id) ? [{ ...p, salary: salaries.get(p.id)! }] : []);
}

function bySalaryDesc(a: Player, b: Player): number {
  return b.salary - a.salary || a.name.localeCompare(b.name) || a.id - b.id;
}

/** The players of a competition at its salaries, with their teams, by salary descending. */
export async function listCompetitionPlayers(
  kv: Deno.Kv,
  cid: number,
): Promise<PlayerWithTeam[]> {
  const players = await getPlayersByIds(kv, await listCompetitionPlayerIds(kv, cid));
  return withTeam(kv, (await inCompetition(kv, cid, players)).sort(bySalaryDesc));
}

/**
 * Every player not yet in the competition who may join it (with a match: of its two clubs only),
 * with team and default salary, by salary descending.
 */
export async function listAvailablePlayers(kv: Deno.Kv, cid: number): Promise<PlayerWithTeam[]> {
  const inIt = await listCompetitionPlayerIds(kv, cid);
  const clubs = await matchClubs(kv, cid);
  const players = (await listPlayers(kv)).filter((p) =>
    !inIt.has(p.id) && (clubs === null || clubs.has(p.teamId))
  );
  return withTeam(kv, players.sort(bySalaryDesc));
}

/** The clubs of the competition's match or round, or null without either. */
async function matchClubs(kv: Deno.Kv, cid: number): Promise<Set<number> | null> {
  const competition = (await kv.get<Competition>(keys.competition(cid))).value;
  if (!competition || (competition.matchId == null && typeof competition.roundId !== "number")) {
    return null;
  }
  const matches = await competitionMatches(kv, competition);
  if (matches.length === 0) return null;
  return new Set(matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
}

/**
 * Why nobody can enter a valid team in the competition yet (e.g. "Only 2 defenders: a team
 * needs at least 3."), or null when its players make at least one team under its rules.
 */
export async function whyNoValidTeam(
  kv: Deno.Kv,
  competition: Competition,
): Promise<string | null> {
  return missingForTeam(await listCompetitionPlayers(kv, competition.id), rulesOf(competition));
}

/**
 * Migration: links stored as bare player ids (before salaries were per competition) get the
 * player's current default salary. Idempotent and safe to run from several isolates at once;
 * returns how many links it converted.
 */
export async function migrateCompetitionPlayerSalaries(kv: Deno.Kv): Promise<number> {
  let converted = 0;
  for await (const entry of kv.list({ prefix: ["competition_players"] })) {
    if (linkOf(entry.value) !== null) continue;
    const playerId = entry.key[2] as number;
    const player = (await kv.get<Player>(keys.player(playerId))).value;
    if (!player) continue;
    const link: CompetitionPlayerLink = { playerId, salary: player.salary };
    if ((await kv.atomic().check(entry).set(entry.key, link).commit()).ok) converted++;
  }
  return converted;
}
