/**
 * Rounds: a named set of matches (a matchday) that a contest can span, with the
 * `["rounds_by_match", matchId, roundId]` index (a match in a round cannot be deleted) and
 * `["competitions_by_round", roundId, cid]` (a round in use keeps its matches).
 */
import type { Competition, Match, Round } from "@/lib/domain/types.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { reserveIds } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { touch } from "@/lib/store/touch.ts";
import { getManyEntries, getManyValues, listValues, retryAtomic } from "@/lib/store/util.ts";
import { type MatchWithTeams, withTeams } from "./matches.ts";

/** What an admin gives for a round. */
export interface RoundInput {
  name: string;
  matchIds: number[];
}

/** A round with its matches (and their clubs), by kick-off. */
export type RoundWithMatches = Round & { matches: MatchWithTeams[] };

/**
 * Reads the round's matches, checking each exists and no club plays twice (a pick's lock is
 * its club's one match); a 400 on `matchIds` otherwise. Returns them by kick-off.
 */
async function readRoundMatches(
  kv: Deno.Kv,
  matchIds: number[],
): Promise<Deno.KvEntry<Match>[]> {
  const unique = [...new Set(matchIds)];
  if (unique.length !== matchIds.length) {
    throw fieldError("matchIds", "A match can be in a round only once.");
  }
  const entries = await getManyEntries<Match>(kv, unique.map(keys.match));
  const missing = unique.filter((_, i) => entries[i].value === null);
  if (missing.length > 0) {
    throw fieldError("matchIds", `Match ${missing.join(", ")} does not exist.`);
  }
  const found = entries as Deno.KvEntry<Match>[];
  const clubs = new Map<number, number>();
  for (const { value: m } of found) {
    for (const club of [m.homeTeamId, m.awayTeamId]) {
      const other = clubs.get(club);
      if (other !== undefined) {
        throw fieldError(
          "matchIds",
          `Matches ${other} and ${m.id} share a club: in a round each club plays once.`,
        );
      }
      clubs.set(club, m.id);
    }
  }
  return found.sort((a, b) =>
    a.value.kickoffTime.localeCompare(b.value.kickoffTime) || a.value.id - b.value.id
  );
}

/** Rewrites each match checked, so a concurrent deleteMatch fails its check (as linkMatch). */
function holdMatches(op: Deno.AtomicOperation, matches: Deno.KvEntry<Match>[]) {
  for (const m of matches) op.check(m).set(m.key, m.value);
}

/**
 * Creates a round of existing matches (a 400 on `matchIds` for an unknown match or a club
 * playing twice).
 * @example await createRound(kv, { name: "Premier League, Matchday 14", matchIds: [1, 2, 3] });
 */
export async function createRound(kv: Deno.Kv, input: RoundInput): Promise<Round> {
  const name = input.name.trim();
  return await retryAtomic("create the round", async () => {
    const matches = await readRoundMatches(kv, input.matchIds);
    const reservation = await reserveIds(kv, "rounds");
    const id = reservation.ids[0];
    const round: Round = {
      id,
      name,
      matchIds: matches.map((m) => m.value.id),
      createdAt: new Date().toISOString(),
    };
    const op = reservation.claim(kv.atomic());
    holdMatches(op, matches);
    touch(op, "catalog").check({ key: keys.round(id), versionstamp: null })
      .set(keys.round(id), round);
    for (const m of round.matchIds) op.set(keys.roundByMatch(m, id), id);
    const res = await op.commit();
    return res.ok ? round : undefined;
  });
}

/** The round with this id, or null. */
export async function getRound(kv: Deno.Kv, id: number): Promise<Round | null> {
  return (await kv.get<Round>(keys.round(id))).value;
}

/** The round with its matches and their clubs, or null. */
export async function getRoundWithMatches(
  kv: Deno.Kv,
  id: number,
): Promise<RoundWithMatches | null> {
  const round = await getRound(kv, id);
  if (!round) return null;
  return { ...round, matches: await withTeams(kv, await roundMatches(kv, round)) };
}

/** Every round with its matches, by first kick-off. */
export async function listRounds(kv: Deno.Kv): Promise<RoundWithMatches[]> {
  const rounds = await listValues<Round>(kv, keys.rounds());
  const all = await Promise.all(rounds.map(async (r) => ({
    ...r,
    matches: await withTeams(kv, await roundMatches(kv, r)),
  })));
  const first = (r: RoundWithMatches) => r.matches[0]?.kickoffTime ?? "";
  return all.sort((a, b) => first(a).localeCompare(first(b)) || a.id - b.id);
}

/** The matches of a round that still exist, by kick-off. */
export async function roundMatches(kv: Deno.Kv, round: Pick<Round, "matchIds">): Promise<Match[]> {
  const matches = await getManyValues<Match>(kv, round.matchIds.map(keys.match));
  return matches.sort((a, b) => a.kickoffTime.localeCompare(b.kickoffTime) || a.id - b.id);
}

/**
 * The matches a contest is played on: its round's, its one match, or none.
 * @example const matches = await competitionMatches(kv, competition); // [ARS v CHE, …]
 */
export async function competitionMatches(
  kv: Deno.Kv,
  c: Pick<Competition, "matchId" | "roundId">,
): Promise<Match[]> {
  if (typeof c.roundId === "number") {
    const round = await getRound(kv, c.roundId);
    return round ? roundMatches(kv, round) : [];
  }
  if (c.matchId === null || c.matchId === undefined) return [];
  const match = (await kv.get<Match>(keys.match(c.matchId))).value;
  return match ? [match] : [];
}

/** The ids of the competitions on a round. */
export function listCompetitionIdsOnRound(kv: Deno.Kv, roundId: number): Promise<number[]> {
  return listValues<number>(kv, keys.competitionsByRound(roundId));
}

/** The ids of the rounds a match is in. */
export function listRoundIdsOfMatch(kv: Deno.Kv, matchId: number): Promise<number[]> {
  return listValues<number>(kv, keys.roundsByMatch(matchId));
}

function inUse(round: Round, users: Competition[], what: string): ConflictError {
  const names = users.map((c) => `"${c.name}" (id ${c.id})`).join(", ");
  return new ConflictError(
    `Round "${round.name}" is used by ${
      users.length === 1 ? "competition" : "competitions"
    } ${names}: ${what}`,
  );
}

/**
 * Renames a round or changes its matches. Its matches cannot change once a contest on it has
 * entries (entrants picked from those clubs): a ConflictError naming the contests.
 */
export async function updateRound(
  kv: Deno.Kv,
  id: number,
  input: Partial<RoundInput>,
): Promise<Round> {
  return await retryAtomic("update the round", async () => {
    const entry = await kv.get<Round>(keys.round(id));
    if (!entry.value) throw new NotFoundError("Round not found");
    const before = entry.value;
    const matches = input.matchIds ? await readRoundMatches(kv, input.matchIds) : null;
    const matchIds = matches ? matches.map((m) => m.value.id) : before.matchIds;
    const changed = matchIds.join() !== before.matchIds.join();
    const op = kv.atomic().check(entry);
    if (changed) {
      const users = await getManyEntries<Competition>(
        kv,
        (await listCompetitionIdsOnRound(kv, id)).map(keys.competition),
      );
      const entered = users.flatMap((u) => u.value && u.value.currentEntries > 0 ? [u.value] : []);
      if (entered.length > 0) {
        throw inUse(before, entered, "its matches cannot change once a contest has entries.");
      }
      for (const u of users) op.check(u);
      for (const m of before.matchIds) op.delete(keys.roundByMatch(m, id));
      for (const m of matchIds) op.set(keys.roundByMatch(m, id), id);
      holdMatches(op, matches!);
    }
    const round: Round = { ...before, name: input.name?.trim() ?? before.name, matchIds };
    const res = await touch(op.set(entry.key, round), "catalog").commit();
    return res.ok ? round : undefined;
  });
}

/** Deletes a round; ConflictError naming the competitions that still use it. */
export function deleteRound(kv: Deno.Kv, id: number): Promise<void> {
  return retryAtomic("delete the round", async () => {
    const entry = await kv.get<Round>(keys.round(id));
    if (!entry.value) throw new NotFoundError("Round not found");
    const ids = await listCompetitionIdsOnRound(kv, id);
    const users = await getManyValues<Competition>(kv, ids.map(keys.competition));
    if (users.length > 0) throw inUse(entry.value, users, "delete those competitions first.");
    const op = touch(kv.atomic().check(entry).delete(entry.key), "catalog");
    // A competition linked meanwhile rewrites the round record, failing the check above.
    for (const m of entry.value.matchIds) op.delete(keys.roundByMatch(m, id));
    const res = await op.commit();
    return res.ok ? true : undefined;
  }).then(() => undefined);
}

/**
 * Links a competition to a round in `op`: the index, and a rewrite of the round record checked,
 * so a concurrent deleteRound fails. A 400 on `roundId` when the round does not exist.
 */
export async function readRoundForLink(kv: Deno.Kv, roundId: number): Promise<Deno.KvEntry<Round>> {
  const entry = await kv.get<Round>(keys.round(roundId));
  if (entry.value === null) throw fieldError("roundId", `Round ${roundId} does not exist.`);
  return entry as Deno.KvEntry<Round>;
}

/** The atomic half of linking a competition to a round (see readRoundForLink). */
export function linkRound(op: Deno.AtomicOperation, round: Deno.KvEntry<Round>, cid: number) {
  op.check(round).set(round.key, round.value).set(
    keys.competitionByRound(round.value.id, cid),
    cid,
  );
}
