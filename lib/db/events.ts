/**
 * Game events of live competitions: `["events", cid, eventId]`. Creating or deleting one changes
 * the player's performance (and points) in the same atomic, with the live bump.
 */
import { applyEvent, emptyStats } from "@/lib/domain/scoring.ts";
import type {
  Competition,
  EventType,
  GameEvent,
  Player,
  PlayerPerformance,
  Position,
} from "@/lib/domain/types.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { reserveIds } from "./ids.ts";
import { keys } from "./keys.ts";
import { bumpLive } from "./live.ts";
import { scoredPerformance, statsOf } from "./performances.ts";
import { getPlayer, getPlayersByIds } from "./players.ts";
import { getTeamsByIds } from "./teams.ts";
import { getMatch, setLiveScore } from "./matches.ts";
import { listValues, retryAtomic } from "./util.ts";

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

/**
 * Adds to `op` the player's performance after the event is applied (1) or reversed (-1),
 * checked against the performance just read (and the id counter when the record is new).
 */
async function changePerformance(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  cid: number,
  player: { id: number; position: Position },
  eventType: EventType,
  direction: 1 | -1,
): Promise<void> {
  const current = await kv.get<PlayerPerformance>(keys.performance(cid, player.id));
  op.check(current);
  const reservation = current.value ? null : await reserveIds(kv, "performances");
  const id = current.value?.id ?? reservation!.ids[0];
  const stats = applyEvent(statsOf(current.value ?? emptyStats()), eventType, direction);
  const record = scoredPerformance(
    { id, playerId: player.id, competitionId: cid },
    player.position,
    stats,
  );
  op.set(keys.performance(cid, player.id), record);
  reservation?.claim(op);
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
 * Records a game event of a LIVE competition (ConflictError otherwise) for one of its players
 * (InvalidInputError otherwise) and updates that player's performance in the same atomic. An
 * assist for the other club's goal is refused.
 */
export async function createGameEvent(
  kv: Deno.Kv,
  cid: number,
  input: GameEventInput,
  now = new Date(),
): Promise<GameEvent> {
  const player = await getPlayer(kv, input.playerId);
  if (
    player && input.eventType === "ASSIST" &&
    await assistForOtherClub(kv, cid, player, input.minute ?? null)
  ) {
    throw fieldError("playerId", ASSIST_FOR_OTHER_CLUB);
  }
  return retryAtomic("create the event", async () => {
    const competition = await kv.get<Competition>(keys.competition(cid));
    if (!competition.value) throw new NotFoundError("Competition not found");
    if (competition.value.status !== "LIVE") throw new ConflictError(NOT_LIVE_MESSAGE);
    const link = await kv.get(keys.competitionPlayer(cid, input.playerId));
    if (!player || link.value === null) {
      throw fieldError("playerId", "Player is not part of this competition.");
    }
    const reservation = await reserveIds(kv, "events");
    const event: GameEvent = {
      id: reservation.ids[0],
      competitionId: cid,
      playerId: player.id,
      eventType: input.eventType,
      description: input.description?.trim() || null,
      timestamp: now.toISOString(),
      minute: input.minute ?? null,
    };
    const op = reservation.claim(kv.atomic())
      .check(competition)
      .check(link)
      .check({ key: keys.event(cid, event.id), versionstamp: null })
      .set(keys.event(cid, event.id), event);
    await changePerformance(kv, op, cid, player, event.eventType, 1);
    const res = await bumpLive(op, cid).commit();
    return res.ok ? event : undefined;
  }).then(async (event) => {
    await followGoals(kv, cid);
    return event;
  });
}

/** Deletes a game event and reverses its effect on the player's performance, in one atomic. */
export async function deleteGameEvent(kv: Deno.Kv, cid: number, eventId: number): Promise<void> {
  await retryAtomic("delete the event", async () => {
    const entry = await kv.get<GameEvent>(keys.event(cid, eventId));
    if (!entry.value) throw new NotFoundError("Event not found");
    const player = await getPlayer(kv, entry.value.playerId);
    const op = kv.atomic().check(entry).delete(entry.key);
    if (player) await changePerformance(kv, op, cid, player, entry.value.eventType, -1);
    const res = await bumpLive(op, cid).commit();
    return res.ok ? true : undefined;
  });
  await followGoals(kv, cid);
}

/**
 * Sets the score of the competition's match from its GOAL and OWN_GOAL events (an own goal
 * counts for the other side; players of neither club are ignored). See setLiveScore.
 */
async function followGoals(kv: Deno.Kv, cid: number): Promise<void> {
  const competition = (await kv.get<Competition>(keys.competition(cid))).value;
  if (competition?.matchId == null) return;
  const match = await getMatch(kv, competition.matchId);
  if (!match || match.status === "COMPLETED") return;
  const goals = (await listValues<GameEvent>(kv, keys.events(cid)))
    .filter((e) => e.eventType === "GOAL" || e.eventType === "OWN_GOAL");
  const teamOf = new Map(
    (await getPlayersByIds(kv, new Set(goals.map((e) => e.playerId)))).map((p) => [p.id, p.teamId]),
  );
  let home = 0;
  let away = 0;
  for (const goal of goals) {
    const team = teamOf.get(goal.playerId);
    const forHome = team === match.homeTeamId
      ? goal.eventType === "GOAL"
      : team === match.awayTeamId
      ? goal.eventType === "OWN_GOAL"
      : null;
    if (forHome === true) home++;
    if (forHome === false) away++;
  }
  await setLiveScore(kv, match.id, home, away);
}

/** The events of a competition, newest first, each with its player and the player's team. */
export async function listGameEvents(
  kv: Deno.Kv,
  cid: number,
  options: { limit?: number } = {},
): Promise<GameEventWithPlayer[]> {
  const events: GameEvent[] = [];
  const iter = kv.list<GameEvent>({ prefix: keys.events(cid) }, {
    reverse: true,
    limit: options.limit,
  });
  for await (const entry of iter) events.push(entry.value);
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
