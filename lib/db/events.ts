/**
 * Game events of live competitions: `["events", cid, eventId]`. Creating or deleting one changes
 * the player's performance (and points), the goal tally and the match's live score in the same
 * atomic, with the live bump.
 */
import { applyEvent, emptyStats } from "@/lib/domain/scoring.ts";
import { matchOutcome } from "@/lib/domain/match_result.ts";
import type {
  Competition,
  EventType,
  GameEvent,
  Match,
  Player,
  PlayerPerformance,
  Position,
} from "@/lib/domain/types.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { reserveIds } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { pushQueued, queueEventPushes, SCORING_EVENTS } from "./notifications.ts";
import { scoredPerformance, statsOf } from "./performances.ts";
import { getPlayer, getPlayersByIds } from "./players.ts";
import { getTeamsByIds } from "./teams.ts";
import { bumpCatalog } from "@/lib/store/catalog.ts";
import { getManyEntries, listValues, retryAtomic } from "@/lib/store/util.ts";

export const NOT_LIVE_MESSAGE =
  "Competition is not LIVE. Events should only be created for live competitions.";

export interface GameEventInput {
  playerId: number;
  eventType: EventType;
  description?: string | null;
  minute?: number | null;
}

export type GameEventWithPlayer = GameEvent & {
  player: {
    id: number;
    name: string;
    position: Position;
    team: { shortName: string; name: string } | null;
  } | null;
};

/** One event applied (1) or reversed (-1) to its player's performance. */
interface EventDelta {
  player: Player;
  eventType: EventType;
  direction: 1 | -1;
}

/**
 * Adds to `op` each player's performance after the deltas, checked against the performances
 * just read (and the id counter when a record is new).
 */
async function changePerformances(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  cid: number,
  deltas: EventDelta[],
): Promise<void> {
  const players = [...new Map(deltas.map((d) => [d.player.id, d.player])).values()];
  const current = await getManyEntries<PlayerPerformance>(
    kv,
    players.map((p) => keys.performance(cid, p.id)),
  );
  const fresh = current.filter((entry) => !entry.value).length;
  const reservation = fresh > 0 ? await reserveIds(kv, "performances", fresh) : null;
  let nextId = 0;
  players.forEach((player, i) => {
    const entry = current[i];
    op.check(entry);
    let stats = statsOf(entry.value ?? emptyStats());
    for (const d of deltas) {
      if (d.player.id === player.id) stats = applyEvent(stats, d.eventType, d.direction);
    }
    const id = entry.value?.id ?? reservation!.ids[nextId++];
    op.set(
      keys.performance(cid, player.id),
      scoredPerformance({ id, playerId: player.id, competitionId: cid }, player.position, stats),
    );
  });
  reservation?.claim(op);
}

/** Goals (GOAL, for the scorer's club) and own goals (OWN_GOAL, against it) per club id. */
interface GoalTally {
  goals: Record<string, number>;
  ownGoals: Record<string, number>;
}

const isGoal = (type: EventType) => type === "GOAL" || type === "OWN_GOAL";

/** The tally of a competition's stored events (kept since as `goalTally`; built once for older data). */
async function tallyOfEvents(kv: Deno.Kv, cid: number): Promise<GoalTally> {
  const goals = (await listValues<GameEvent>(kv, keys.events(cid))).filter((e) =>
    isGoal(e.eventType)
  );
  const players = await getPlayersByIds(kv, new Set(goals.map((e) => e.playerId)));
  const teamOf = new Map(players.map((p) => [p.id, p.teamId]));
  const tally: GoalTally = { goals: {}, ownGoals: {} };
  for (const goal of goals) {
    const team = teamOf.get(goal.playerId);
    if (team !== undefined) addGoal(tally, goal.eventType, team, 1);
  }
  return tally;
}

function addGoal(tally: GoalTally, type: EventType, teamId: number, n: number): void {
  const side = type === "GOAL" ? tally.goals : tally.ownGoals;
  side[teamId] = (side[teamId] ?? 0) + n;
}

/**
 * Adds to `op` the goal tally after the deltas and, while the competition's match is not
 * COMPLETED, that match LIVE with the score the tally gives (an own goal counts for the other
 * side; goals of players of neither club are ignored). A COMPLETED match keeps the result the
 * admin saved. Reads one tally and one match, never the event list (but once, for older data).
 */
async function changeScore(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  competition: Competition,
  deltas: EventDelta[],
): Promise<void> {
  const goals = deltas.filter((d) => isGoal(d.eventType));
  const matchId = competition.matchId;
  if (goals.length === 0 && matchId == null) return;
  const [tallyEntry, matchEntry] = await Promise.all([
    kv.get<GoalTally>(keys.goalTally(competition.id)),
    matchId == null ? null : kv.get<Match>(keys.match(matchId)),
  ]);
  const tally = tallyEntry.value ?? await tallyOfEvents(kv, competition.id);
  if (goals.length > 0) {
    for (const d of goals) addGoal(tally, d.eventType, d.player.teamId, d.direction);
    op.check(tallyEntry).set(tallyEntry.key, tally);
  }
  const match = matchEntry?.value;
  if (!matchEntry || !match || match.status === "COMPLETED" || match.status === "POSTPONED") return;
  const homeScore = (tally.goals[match.homeTeamId] ?? 0) + (tally.ownGoals[match.awayTeamId] ?? 0);
  const awayScore = (tally.goals[match.awayTeamId] ?? 0) + (tally.ownGoals[match.homeTeamId] ?? 0);
  if (match.status === "LIVE" && match.homeScore === homeScore && match.awayScore === awayScore) {
    return;
  }
  const { result } = matchOutcome(homeScore, awayScore);
  const live: Match = { ...match, homeScore, awayScore, result, status: "LIVE" };
  bumpCatalog(op.check(matchEntry).set(matchEntry.key, live));
}

export const ASSIST_FOR_OTHER_CLUB =
  "This assist is for a goal by the other club: an assist must come from the scorer's club.";

/**
 * Whether an assist by `assister` at `minute` belongs to the other club's goal: a goal was
 * recorded at that minute, and only by players of another club. (Without a minute, or with no
 * goal at that minute yet, the assist is taken: goals and assists may be entered in any order.)
 */
async function assistForOtherClub(
  kv: Deno.Kv,
  cid: number,
  assister: Player,
  minute: number | null,
): Promise<boolean> {
  if (minute === null) return false;
  const goals = (await listValues<GameEvent>(kv, keys.events(cid)))
    .filter((e) => e.eventType === "GOAL" && e.minute === minute);
  if (goals.length === 0) return false;
  const scorers = await getPlayersByIds(kv, new Set(goals.map((e) => e.playerId)));
  return scorers.length > 0 && scorers.every((p) => p.teamId !== assister.teamId);
}

/**
 * Adds more checks and mutations to the atomic that writes an event change (e.g. the feed's
 * record of the provider's event), so both commit or neither.
 */
export type AlsoWrite = (
  op: Deno.AtomicOperation,
  change: { added: GameEvent | null; removed: GameEvent | null },
) => void | Promise<void>;

/** What one atomic does to a competition's events: remove one, add one, or both (a correction). */
export interface EventChange {
  /** The id of the event to delete (NotFoundError when it is gone). */
  remove?: number;
  /** The event to record: the competition must be LIVE and the player one of its players. */
  add?: GameEventInput;
}

/**
 * Applies an event change in one atomic: the events, every performance they move, the goal tally
 * and the match's live score, and the live bump (see changeScore). An assist for the other
 * club's goal is refused. Returns the events added and removed, with their players.
 */
export async function changeGameEvents(
  kv: Deno.Kv,
  cid: number,
  change: EventChange,
  now = new Date(),
  also?: AlsoWrite,
): Promise<{ added: GameEventWithPlayer | null; removed: GameEvent | null }> {
  const { add } = change;
  const addPlayer = add ? await getPlayer(kv, add.playerId) : null;
  if (
    add && addPlayer && add.eventType === "ASSIST" &&
    await assistForOtherClub(kv, cid, addPlayer, add.minute ?? null)
  ) {
    throw fieldError("playerId", ASSIST_FOR_OTHER_CLUB);
  }
  const done = await retryAtomic("save the event", async () => {
    const competition = await kv.get<Competition>(keys.competition(cid));
    const op = kv.atomic();
    const deltas: EventDelta[] = [];
    let removed: GameEvent | null = null;
    if (change.remove !== undefined) {
      const entry = await kv.get<GameEvent>(keys.event(cid, change.remove));
      if (!entry.value) throw new NotFoundError("Event not found");
      removed = entry.value;
      const player = await getPlayer(kv, removed.playerId);
      op.check(entry).delete(entry.key);
      if (player) deltas.push({ player, eventType: removed.eventType, direction: -1 });
    }
    let added: GameEvent | null = null;
    if (add) {
      if (!competition.value) throw new NotFoundError("Competition not found");
      if (competition.value.status !== "LIVE") throw new ConflictError(NOT_LIVE_MESSAGE);
      const link = await kv.get(keys.competitionPlayer(cid, add.playerId));
      if (!addPlayer || link.value === null) {
        throw fieldError("playerId", "Player is not part of this competition.");
      }
      const reservation = await reserveIds(kv, "events");
      added = {
        id: reservation.ids[0],
        competitionId: cid,
        playerId: addPlayer.id,
        eventType: add.eventType,
        description: add.description?.trim() || null,
        timestamp: now.toISOString(),
        minute: add.minute ?? null,
      };
      reservation.claim(op).check(competition).check(link)
        .check({ key: keys.event(cid, added.id), versionstamp: null })
        .set(keys.event(cid, added.id), added);
      deltas.push({ player: addPlayer, eventType: added.eventType, direction: 1 });
    }
    await changePerformances(kv, op, cid, deltas);
    if (competition.value) await changeScore(kv, op, competition.value, deltas);
    await also?.(op, { added, removed });
    await queueEventPushes(kv, op, { added, removed }, now);
    const res = await bumpLive(op, cid).commit();
    return res.ok ? { added, removed } : undefined;
  });
  const scoring = [done.added, done.removed].some((e) => e && SCORING_EVENTS.has(e.eventType));
  if (scoring) pushQueued(kv);
  return {
    added: done.added ? (await withPlayers(kv, [done.added]))[0] : null,
    removed: done.removed,
  };
}

/**
 * Records a game event of a LIVE competition (ConflictError otherwise) for one of its players
 * (InvalidInputError otherwise), with its player's performance and the match score in the same
 * atomic (see changeGameEvents). Returns the event with its player, as the event list shows it.
 */
export async function createGameEvent(
  kv: Deno.Kv,
  cid: number,
  input: GameEventInput,
  now = new Date(),
): Promise<GameEventWithPlayer> {
  return (await changeGameEvents(kv, cid, { add: input }, now)).added!;
}

/** Deletes a game event and reverses its effect on the performance and the score, in one atomic. */
export async function deleteGameEvent(kv: Deno.Kv, cid: number, eventId: number): Promise<void> {
  await changeGameEvents(kv, cid, { remove: eventId });
}

/** The events of a competition, newest first, each with its player and the player's team. */
export async function listGameEvents(
  kv: Deno.Kv,
  cid: number,
  options: { limit?: number } = {},
): Promise<GameEventWithPlayer[]> {
  return withPlayers(kv, await listEventRecords(kv, cid, options));
}

/** The stored events of a competition, newest first, without their players. */
export async function listEventRecords(
  kv: Deno.Kv,
  cid: number,
  options: { limit?: number } = {},
): Promise<GameEvent[]> {
  const events: GameEvent[] = [];
  const iter = kv.list<GameEvent>({ prefix: keys.events(cid) }, {
    reverse: true,
    limit: options.limit,
  });
  for await (const entry of iter) events.push(entry.value);
  return events;
}

/** Events with their player and the player's team (null when the player is gone). */
export async function withPlayers(
  kv: Deno.Kv,
  events: GameEvent[],
): Promise<GameEventWithPlayer[]> {
  const players = new Map(
    (await getPlayersByIds(kv, new Set(events.map((e) => e.playerId)))).map((p) => [p.id, p]),
  );
  const teams = await getTeamsByIds(kv, [...players.values()].map((p) => p.teamId));
  return events.map((event) => {
    const p = players.get(event.playerId);
    const team = p ? teams.get(p.teamId) : undefined;
    return {
      ...event,
      player: p
        ? {
          id: p.id,
          name: p.name,
          position: p.position,
          team: team ? { shortName: team.shortName, name: team.name } : null,
        }
        : null,
    };
  });
}
