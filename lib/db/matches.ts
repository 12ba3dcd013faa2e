/** Matches between two teams; result and status are computed from the scores on every save. */
import { matchOutcome, matchProblems } from "@/lib/domain/match_result.ts";
import { POSTPONED_HAS_NO_RESULT } from "@/lib/domain/schemas/catalog.ts";
import type { Competition, League, Match, Team } from "@/lib/domain/types.ts";
import {
  ConflictError,
  fieldError,
  InvalidInputError,
  NotFoundError,
} from "@/lib/domain/errors.ts";
import { createWithId } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { touch } from "@/lib/store/touch.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { getTeamsByIds } from "./teams.ts";
import { getManyValues, listValues, retryAtomic } from "@/lib/store/util.ts";
import { bumpCatalog } from "@/lib/store/catalog.ts";

export interface MatchInput {
  homeTeamId: number;
  awayTeamId: number;
  league: League;
  kickoffTime: string;
  stadium: string;
  homeScore?: number | null;
  awayScore?: number | null;
  /** "POSTPONED" postpones the match; any other value (or none) lets the scores decide. */
  status?: string | null;
}

export type MatchWithTeams = Match & { homeTeam: Team | null; awayTeam: Team | null };

/**
 * Checks a match before it is saved: two different existing teams of the match's league (any
 * league for cup competitions), and no score before kick-off. A 400 naming the field otherwise.
 */
async function assertValidMatch(kv: Deno.Kv, input: MatchInput, now: Date): Promise<void> {
  const { homeTeamId, awayTeamId } = input;
  if (homeTeamId === awayTeamId) {
    throw fieldError("awayTeamId", "Home team and away team cannot be the same");
  }
  if (input.status === "POSTPONED" && (input.homeScore != null || input.awayScore != null)) {
    throw fieldError("status", POSTPONED_HAS_NO_RESULT);
  }
  const teams = await getTeamsByIds(kv, [homeTeamId, awayTeamId]);
  for (const [field, id] of [["homeTeamId", homeTeamId], ["awayTeamId", awayTeamId]] as const) {
    if (!teams.has(id)) throw fieldError(field, `Team ${id} does not exist.`);
  }
  const problems = matchProblems(input, teams.get(homeTeamId)!, teams.get(awayTeamId)!, now);
  if (problems.length === 0) return;
  throw new InvalidInputError(
    problems[0].message,
    problems.map((p) => ({ path: [p.field], message: p.message })),
  );
}

/**
 * The match record from its fields; `previous` (on an update) keeps the time its result was
 * saved while the scores stay the same, and a new result is stamped `now`.
 */
function toMatch(
  input: MatchInput,
  id: number,
  createdAt: string,
  previous: Match | null = null,
  now = new Date(),
): Match {
  const homeScore = input.homeScore ?? null;
  const awayScore = input.awayScore ?? null;
  const outcome = input.status === "POSTPONED"
    ? { result: "NOT_PLAYED" as const, status: "POSTPONED" as const }
    : matchOutcome(homeScore, awayScore);
  const sameResult = previous?.status === "COMPLETED" && previous.homeScore === homeScore &&
    previous.awayScore === awayScore;
  const resultSavedAt = outcome.status !== "COMPLETED"
    ? null
    : sameResult
    ? previous.resultSavedAt ?? now.toISOString()
    : now.toISOString();
  return {
    id,
    homeTeamId: input.homeTeamId,
    awayTeamId: input.awayTeamId,
    league: input.league,
    kickoffTime: input.kickoffTime,
    stadium: input.stadium,
    ...outcome,
    homeScore,
    awayScore,
    createdAt,
    resultSavedAt,
  };
}

/** Creates a valid match (see assertValidMatch); result and status follow the scores. */
export async function createMatch(
  kv: Deno.Kv,
  input: MatchInput,
  now = new Date(),
): Promise<Match> {
  await assertValidMatch(kv, input, now);
  const createdAt = new Date().toISOString();
  return createWithId(kv, "matches", (id, op) => {
    const match = toMatch(input, id, createdAt, null, now);
    touch(op, "catalog").check({ key: keys.match(id), versionstamp: null }).set(
      keys.match(id),
      match,
    );
    return match;
  });
}

/** The match with this id, or null. */
export async function getMatch(kv: Deno.Kv, id: number): Promise<Match | null> {
  return (await kv.get<Match>(keys.match(id))).value;
}

/** The match with its home and away teams, or null. */
export async function getMatchWithTeams(kv: Deno.Kv, id: number): Promise<MatchWithTeams | null> {
  const match = await getMatch(kv, id);
  return match ? (await withTeams(kv, [match]))[0] : null;
}

/** Adds the homeTeam/awayTeam objects to matches. */
export async function withTeams(kv: Deno.Kv, matches: Match[]): Promise<MatchWithTeams[]> {
  const teams = await getTeamsByIds(kv, matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
  return matches.map((m) => ({
    ...m,
    homeTeam: teams.get(m.homeTeamId) ?? null,
    awayTeam: teams.get(m.awayTeamId) ?? null,
  }));
}

/** Every match with its teams, by kickoff time. */
export async function listMatches(kv: Deno.Kv): Promise<MatchWithTeams[]> {
  const matches = await listValues<Match>(kv, keys.matches());
  matches.sort((a, b) => a.kickoffTime.localeCompare(b.kickoffTime) || a.id - b.id);
  return withTeams(kv, matches);
}

/**
 * Replaces the editable fields of a match and recomputes its result and status (a postponed
 * match stays so unless `input.status` says otherwise). The competitions on the match see the
 * change at once (their live marker moves): its full time or postponement moves their standings.
 */
export async function updateMatch(
  kv: Deno.Kv,
  id: number,
  input: Partial<MatchInput>,
  now = new Date(),
): Promise<Match> {
  const current = await getMatch(kv, id);
  if (!current) throw new NotFoundError("Match not found");
  await assertValidMatch(kv, { ...current, ...input }, now);
  return retryAtomic("update the match", async () => {
    const entry = await kv.get<Match>(keys.match(id));
    if (!entry.value) throw new NotFoundError("Match not found");
    const match = toMatch(
      { ...entry.value, ...input },
      id,
      entry.value.createdAt,
      entry.value,
      now,
    );
    const op = bumpCatalog(kv.atomic().check(entry).set(keys.match(id), match));
    // Linking a competition rewrites the match, so the check above covers this list too.
    for (const cid of await listValues<number>(kv, keys.competitionsByMatch(id))) bumpLive(op, cid);
    const res = await op.commit();
    return res.ok ? match : undefined;
  });
}

/**
 * While a match is not COMPLETED, its score follows the goals recorded as game events: the
 * match becomes LIVE with that score (and the result it would give). A COMPLETED match keeps
 * the result the admin saved, and a POSTPONED one stays so until an admin says otherwise.
 * Returns the match as saved, or null when left alone.
 */
export function setLiveScore(
  kv: Deno.Kv,
  matchId: number,
  homeScore: number,
  awayScore: number,
): Promise<Match | null> {
  return retryAtomic("update the live score", async () => {
    const entry = await kv.get<Match>(keys.match(matchId));
    if (!entry.value || entry.value.status === "COMPLETED" || entry.value.status === "POSTPONED") {
      return null;
    }
    const { result } = matchOutcome(homeScore, awayScore);
    const match: Match = { ...entry.value, homeScore, awayScore, result, status: "LIVE" };
    const op = touch(kv.atomic(), "catalog").check(entry).set(entry.key, match);
    if (entry.value.status !== "LIVE") {
      // A kick-off reported early shows the acting captains at once.
      for (const cid of await listValues<number>(kv, keys.competitionsByMatch(matchId))) {
        bumpLive(op, cid);
      }
    }
    const res = await op.commit();
    return res.ok ? match : undefined;
  });
}

/**
 * Records that a match really kicked off at `at` (a data feed's kick-off): its kick-off becomes
 * `at` when that is earlier than the scheduled time (never later), and a match not yet COMPLETED
 * is LIVE (0-0 until its goals say otherwise), a POSTPONED one too: it is played after all. One
 * atomic, which moves the live marker of the contests on the match (their picks are in play);
 * returns the match as saved.
 */
export function recordKickOff(kv: Deno.Kv, matchId: number, at: Date): Promise<Match> {
  return retryAtomic("record the kick-off", async () => {
    const entry = await kv.get<Match>(keys.match(matchId));
    if (!entry.value) throw new NotFoundError("Match not found");
    const before = entry.value;
    const kickoffTime = Date.parse(before.kickoffTime) > at.getTime()
      ? at.toISOString()
      : before.kickoffTime;
    const live = before.status !== "COMPLETED";
    const homeScore = live ? before.homeScore ?? 0 : before.homeScore;
    const awayScore = live ? before.awayScore ?? 0 : before.awayScore;
    const match: Match = live
      ? {
        ...before,
        kickoffTime,
        homeScore,
        awayScore,
        result: matchOutcome(homeScore, awayScore).result,
        status: "LIVE",
      }
      : { ...before, kickoffTime };
    if (match.kickoffTime === before.kickoffTime && match.status === before.status) return before;
    const op = touch(kv.atomic(), "catalog").check(entry).set(entry.key, match);
    for (const cid of await listValues<number>(kv, keys.competitionsByMatch(matchId))) {
      bumpLive(op, cid);
    }
    const res = await op.commit();
    return res.ok ? match : undefined;
  });
}

/** The competitions that use a match: on it, or on a round that holds it. */
export async function listCompetitionsUsingMatch(
  kv: Deno.Kv,
  matchId: number,
): Promise<Competition[]> {
  const ids = await listValues<number>(kv, keys.competitionsByMatch(matchId));
  const rounds = await listValues<number>(kv, keys.roundsByMatch(matchId));
  const onRounds = await Promise.all(
    rounds.map((r) => listValues<number>(kv, keys.competitionsByRound(r))),
  );
  const all = [...new Set([...ids, ...onRounds.flat()])];
  return getManyValues<Competition>(kv, all.map(keys.competition));
}

function usedByMessage(competitions: Competition[]): string {
  const names = competitions.map((c) => `"${c.name}" (id ${c.id})`).join(", ");
  const noun = competitions.length === 1 ? "competition" : "competitions";
  return `This match is used by ${noun} ${names}`;
}

/**
 * Deletes a match; ConflictError naming the competitions that still use it. Linking a competition
 * rewrites the match record, so the versionstamp check here closes the race with that.
 */
export function deleteMatch(kv: Deno.Kv, id: number): Promise<void> {
  return retryAtomic("delete the match", async () => {
    const entry = await kv.get<Match>(keys.match(id));
    if (!entry.value) throw new NotFoundError("Match not found");
    const users = await listCompetitionsUsingMatch(kv, id);
    if (users.length > 0) throw new ConflictError(usedByMessage(users));
    // A round holding the match rewrites its record when made, failing the check below.
    const rounds = await listValues<number>(kv, keys.roundsByMatch(id));
    if (rounds.length > 0) {
      throw new ConflictError(
        `This match is in round ${rounds.join(", ")}: take it out of the round first.`,
      );
    }
    const res = await touch(kv.atomic(), "catalog").check(entry).delete(keys.match(id)).commit();
    return res.ok ? true : undefined;
  }).then(() => undefined);
}
