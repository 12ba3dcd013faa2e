/**
 * The live event feed: a data provider posts signed messages (see signature.ts), each a game
 * event or a match status, identified by the provider's event id.
 *
 * - Idempotent: a message whose id and version were fully applied changes nothing (DUPLICATE);
 *   a refused one is tried again when sent again.
 * - Out of order: a message older than the stored version of its id is IGNORED; a withdrawal
 *   arriving before its event leaves a tombstone the late event cannot pass. Status messages
 *   only move a match forward (kick-off → half time → second half → full time).
 * - Corrections: a higher version replaces the event (the old one's points reversed and the new
 *   one's added in one atomic per competition); `withdrawn: true` reverses it, as the admin
 *   delete does.
 * - A game event goes to every LIVE competition of its match that has the player. Events for a
 *   match that is not LIVE, or a player in none of its competitions, are REFUSED with the reason
 *   and kept (the record and the log) for review.
 * - The match's status drives its competitions (lib/db/status_clock.ts): the kick-off, even before
 *   the scheduled time, closes their entries and starts them at once; full time saves the result
 *   through `updateMatch`, the admin's own path, and the automatic competitions follow.
 * - A correction is taken whatever the match's state (after full time too) and replaces the old
 *   version in one atomic per competition; refused, it changes nothing.
 *
 * The record of a provider event is saved first as incomplete, then each competition's change
 * commits with the record's update in one atomic; a crash in between is finished by the
 * provider's retry (same id and version), never doubled.
 */
import { ConflictError, DomainError, UnauthorizedError } from "@/lib/domain/errors.ts";
import type { FeedMessage, FeedStatusType } from "@/lib/domain/schemas/feed.ts";
import { FEED_STATUS_TYPES } from "@/lib/domain/schemas/feed.ts";
import type { EventType } from "@/lib/domain/types.ts";
import { changeGameEvents, NOT_LIVE_MESSAGE } from "@/lib/db/events.ts";
import {
  claimFeedSignature,
  type FeedEventRecord,
  type FeedEventStatus,
  type FeedMatchState,
  getFeedEventEntry,
  getFeedMatchState,
  getFeedProvider,
  logFeedDelivery,
  saveFeedEvent,
  setFeedMatchState,
} from "@/lib/db/feed.ts";
import { keys } from "@/lib/store/keys.ts";
import { getMatch, listCompetitionsUsingMatch } from "@/lib/db/matches.ts";
import { endMatch, kickOffMatch } from "@/lib/db/status_clock.ts";
import { getPlayer } from "@/lib/db/players.ts";
import { getManyEntries } from "@/lib/store/util.ts";
import { sameText, SIGNATURE_WINDOW_SECONDS, signFeedBody } from "./signature.ts";

/** What the feed did with a message (the answer to the provider). */
export interface FeedOutcome {
  status: FeedEventStatus | "DUPLICATE";
  reason: string | null;
  /** The game event made in each competition, by competition id. */
  events: Record<string, number>;
}

/**
 * Checks a provider request: a known provider, a timestamp within 5 minutes, an HMAC signature
 * made with one of its secrets (two are valid during a rotation), never used before. Returns the
 * provider's name; UnauthorizedError (401) or ConflictError (409, a replay) otherwise.
 */
export async function verifyFeedRequest(
  kv: Deno.Kv,
  headers: Headers,
  body: string,
  now = Date.now(),
): Promise<string> {
  const name = headers.get("x-feed-provider") ?? "";
  const timestamp = headers.get("x-feed-timestamp") ?? "";
  const signature = headers.get("x-feed-signature") ?? "";
  if (!name || !timestamp || !signature) {
    throw new UnauthorizedError(
      "Signed requests only: x-feed-provider, x-feed-timestamp and x-feed-signature are required",
    );
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new UnauthorizedError("Invalid x-feed-timestamp");
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) {
    throw new UnauthorizedError(
      "Signature expired: its timestamp is more than 5 minutes from the server's clock",
    );
  }
  const provider = name.length <= 40 ? await getFeedProvider(kv, name) : null;
  const expected = await Promise.all(
    (provider?.secrets ?? []).map((s) => signFeedBody(s.secret, Number(timestamp), body)),
  );
  if (!expected.some((e) => sameText(e, signature))) {
    throw new UnauthorizedError("Invalid signature");
  }
  if (!await claimFeedSignature(kv, name, signature)) {
    throw new ConflictError("Signature already used: this request was received before");
  }
  return name;
}

const isStatus = (type: string): type is FeedStatusType =>
  (FEED_STATUS_TYPES as readonly string[]).includes(type);

/** A withdrawal ranks above the event of the same version. */
const rank = (version: number, withdrawn: boolean) => version * 2 + (withdrawn ? 1 : 0);

/** What the delivery log and the event's record both keep of a message of `provider`. */
function messageFields(provider: string, message: FeedMessage) {
  return {
    provider,
    version: message.version,
    type: message.type,
    matchId: message.matchId,
    playerId: message.playerId ?? null,
    minute: message.minute ?? null,
  };
}

/** Processes one verified message of `provider` (see the module comment) and logs it. */
export async function ingestFeedMessage(
  kv: Deno.Kv,
  provider: string,
  message: FeedMessage,
  now = new Date(),
): Promise<FeedOutcome> {
  const outcome = await ingest(kv, provider, message, now);
  await logFeedDelivery(kv, {
    ...messageFields(provider, message),
    eventId: message.id,
    outcome: outcome.status,
    reason: outcome.reason,
    receivedAt: now.toISOString(),
  });
  return outcome;
}

async function ingest(
  kv: Deno.Kv,
  provider: string,
  message: FeedMessage,
  now: Date,
): Promise<FeedOutcome> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const entry = await getFeedEventEntry(kv, provider, message.id);
    const stored = entry.value;
    if (stored) {
      const have = rank(stored.version, stored.withdrawn);
      const got = rank(message.version, message.withdrawn);
      const events = eventIds(stored);
      if (got < have) {
        const reason = `Version ${message.version} is older than version ${stored.version}, ` +
          `already received`;
        return { status: "IGNORED", reason, events };
      }
      // A refused event is looked at again when sent again (e.g. after a late kick-off).
      if (got === have && stored.complete && stored.status !== "REFUSED") {
        return { status: "DUPLICATE", reason: stored.reason, events };
      }
    }
    const record: FeedEventRecord = {
      ...messageFields(provider, message),
      id: message.id,
      withdrawn: message.withdrawn,
      status: message.withdrawn ? "WITHDRAWN" : "APPLIED",
      reason: null,
      applied: stored?.applied ?? {},
      complete: false,
      receivedAt: stored?.receivedAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    if (!await saveFeedEvent(kv, entry, record)) continue;
    const done = isStatus(message.type)
      ? await applyStatus(kv, message, message.type, now)
      : await applyEvent(kv, provider, message, message.type as EventType, now);
    return finish(kv, provider, message, done);
  }
  throw new ConflictError("This event is being received concurrently; please retry");
}

function eventIds(record: FeedEventRecord): Record<string, number> {
  return Object.fromEntries(Object.entries(record.applied).map(([cid, a]) => [cid, a.eventId]));
}

/** Marks the record complete with its final status and reason. */
async function finish(
  kv: Deno.Kv,
  provider: string,
  message: FeedMessage,
  done: { status: FeedEventStatus; reason: string | null },
): Promise<FeedOutcome> {
  while (true) {
    const entry = await getFeedEventEntry(kv, provider, message.id);
    const record = entry.value!;
    const final = { ...record, status: done.status, reason: done.reason, complete: true };
    if (await saveFeedEvent(kv, entry, final)) {
      return { status: done.status, reason: done.reason, events: eventIds(final) };
    }
  }
}

/** Where a game event goes, or why it goes nowhere. */
type Targets =
  /** `cids`: the LIVE competitions of the match that have the player; `live`: every LIVE one. */
  | { cids: number[]; live: Set<number>; reason: null }
  | { cids: []; live: Set<number>; reason: string };

/**
 * The LIVE competitions of the message's match that have its player, or why there are none. A
 * new event needs the match LIVE; a correction (`correcting`: an earlier version was applied)
 * is taken whatever the match's state, as real feeds correct scorers after the whistle.
 */
async function targetsOf(
  kv: Deno.Kv,
  message: FeedMessage,
  correcting: boolean,
): Promise<Targets> {
  const live = new Set<number>();
  const refuse = (reason: string) => ({ cids: [] as [], live, reason });
  const match = await getMatch(kv, message.matchId);
  if (!match) return refuse(`Match ${message.matchId} does not exist`);
  if (match.status !== "LIVE" && !correcting) {
    return refuse(`Match ${match.id} is not live (${match.status}): events need a kick-off first`);
  }
  const player = await getPlayer(kv, message.playerId!);
  if (!player) return refuse(`Player ${message.playerId} does not exist`);
  const who = `${player.name} (player ${player.id})`;
  if (player.teamId !== match.homeTeamId && player.teamId !== match.awayTeamId) {
    return refuse(`${who} plays for neither club of match ${match.id}`);
  }
  const competitions = (await listCompetitionsUsingMatch(kv, match.id))
    .filter((c) => c.status === "LIVE");
  for (const c of competitions) live.add(c.id);
  if (competitions.length === 0) return refuse(`No LIVE competition uses match ${match.id}`);
  const links = await getManyEntries(
    kv,
    competitions.map((c) => keys.competitionPlayer(c.id, player.id)),
  );
  const cids = competitions.filter((_, i) => links[i].value !== null).map((c) => c.id);
  if (cids.length === 0) return refuse(`${who} is not in a competition of match ${match.id}`);
  return { cids, live, reason: null };
}

/**
 * Brings each competition in line with the message: the event added, replaced (old version
 * reversed) or withdrawn, one atomic per competition that also updates the record. A correction
 * replaces in one atomic or not at all: when it is refused (everywhere, or in a competition that
 * is no longer LIVE) the version before stays where it was.
 */
async function applyEvent(
  kv: Deno.Kv,
  provider: string,
  message: FeedMessage,
  eventType: EventType,
  now: Date,
): Promise<{ status: FeedEventStatus; reason: string | null }> {
  const applied = (await getFeedEventEntry(kv, provider, message.id)).value!.applied;
  let targets: number[] = [];
  let live = new Set<number>();
  if (!message.withdrawn) {
    const found = await targetsOf(kv, message, Object.keys(applied).length > 0);
    if (found.reason) return { status: "REFUSED", reason: found.reason };
    targets = found.cids;
    live = found.live;
  }
  const all = new Set([...Object.keys(applied).map(Number), ...targets]);
  const failures: string[] = [];
  for (const cid of all) {
    const previous = applied[cid];
    const wanted = targets.includes(cid);
    if (previous?.version === message.version && wanted) continue;
    if (!message.withdrawn && !live.has(cid)) {
      // The old version stays in a competition that has moved on (COMPLETED, prizes awarded).
      failures.push(`competition ${cid}: ${NOT_LIVE_MESSAGE}`);
      continue;
    }
    const old = previous && (await kv.get(keys.event(cid, previous.eventId))).value !== null
      ? previous.eventId
      : undefined;
    const add = wanted
      ? {
        playerId: message.playerId!,
        eventType,
        description: message.description ?? null,
        minute: message.minute ?? null,
      }
      : undefined;
    try {
      await changeGameEvents(kv, cid, { remove: old, add }, now, async (op, change) => {
        const entry = await getFeedEventEntry(kv, provider, message.id);
        const record = { ...entry.value!, applied: { ...entry.value!.applied } };
        if (change.added) {
          record.applied[cid] = { eventId: change.added.id, version: message.version };
        } else delete record.applied[cid];
        op.check(entry).set(entry.key, record);
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      failures.push(`competition ${cid}: ${err.message}`);
    }
  }
  if (message.withdrawn) return { status: "WITHDRAWN", reason: null };
  if (failures.length >= all.size) return { status: "REFUSED", reason: failures.join("; ") };
  return { status: "APPLIED", reason: failures.length ? failures.join("; ") : null };
}

const PERIODS: Record<FeedStatusType, { period: FeedMatchState["period"]; order: number }> = {
  KICK_OFF: { period: "FIRST_HALF", order: 1 },
  HALF_TIME: { period: "HALF_TIME", order: 2 },
  SECOND_HALF: { period: "SECOND_HALF", order: 3 },
  FULL_TIME: { period: "FULL_TIME", order: 4 },
};

/**
 * Moves the match forward. Any status of a match not yet COMPLETED is its kick-off if none was
 * recorded (kickOffMatch: the match LIVE, and its competitions closed for entries and started at
 * once, even before the scheduled time); full time then saves the score (endMatch: COMPLETED, the
 * automatic competitions following after their grace period). A status behind the match's current
 * one is IGNORED; a corrected full time (a higher version) saves the new score.
 */
async function applyStatus(
  kv: Deno.Kv,
  message: FeedMessage,
  type: FeedStatusType,
  now: Date,
): Promise<{ status: FeedEventStatus; reason: string | null }> {
  const match = await getMatch(kv, message.matchId);
  if (!match) return { status: "REFUSED", reason: `Match ${message.matchId} does not exist` };
  const state = await getFeedMatchState(kv, match.id);
  const current = state ? PERIODS[periodType(state.period)].order : 0;
  const { period, order } = PERIODS[type];
  const correction = type === "FULL_TIME" && state?.period === "FULL_TIME";
  if (order <= current && !correction) {
    return { status: "IGNORED", reason: `Match ${match.id} is already at ${state!.period}` };
  }
  if (type !== "FULL_TIME" && match.status === "COMPLETED") {
    return { status: "IGNORED", reason: `Match ${match.id} is already COMPLETED` };
  }
  if (match.status !== "COMPLETED") await kickOffMatch(kv, match.id, now);
  if (type === "FULL_TIME") {
    try {
      await endMatch(kv, match.id, {
        homeScore: message.homeScore!,
        awayScore: message.awayScore!,
      }, now);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return { status: "REFUSED", reason: err.message };
    }
  }
  await setFeedMatchState(kv, { matchId: match.id, period, updatedAt: now.toISOString() });
  return { status: "APPLIED", reason: null };
}

function periodType(period: FeedMatchState["period"]): FeedStatusType {
  return (Object.keys(PERIODS) as FeedStatusType[]).find((t) => PERIODS[t].period === period)!;
}
