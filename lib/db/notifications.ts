/**
 * Notifications a person asked for, per entry: e-mail 1 hour before the deadline, e-mail the
 * result, browser push when a pick scores and with the final standings. Each opt-in keeps the
 * time and place it was given (its consent); what was sent is recorded in the same atomic that
 * writes the message (outbox), so each goes once. An address that bounced gets nothing more.
 */
import type { EventType, GameEvent } from "@/lib/domain/types.ts";
import type { GroupedWrite } from "@/lib/store/group_commit.ts";
import { timeOrderedId } from "@/lib/store/ids.ts";
import type { ConsentSource } from "@/lib/domain/schemas/notifications.ts";
import { keys } from "@/lib/store/keys.ts";
import { storeState } from "@/lib/store/store_state.ts";

/** The four opt-ins. */
export const NOTIFY_KINDS = ["deadlineEmail", "resultEmail", "pushScored", "pushFinal"] as const;
export type NotifyKind = typeof NOTIFY_KINDS[number];

/** Where an opt-in was given. */
export type { ConsentSource };

/** An opt-in as given: when and where. */
export interface Consent {
  at: string;
  source: ConsentSource;
}

/** A browser's push subscription (PushSubscription.toJSON()). */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** One entry's notification settings and what was sent of them. */
export interface NotifyPrefs {
  entryId: number;
  competitionId: number;
  email: string;
  deadlineEmail: Consent | null;
  resultEmail: Consent | null;
  pushScored: Consent | null;
  pushFinal: Consent | null;
  /** The browser the push notifications go to (null: none granted, or revoked). */
  push: PushTarget | null;
  /** The picks, for "my picks scored" (kept in step by `setNotifyPrefs`). */
  playerIds: number[];
  deadlineSentAt?: string;
  resultSentAt?: string;
  finalPushedAt?: string;
  /** When the one-click unsubscribe link was used (every e-mail opt-in was withdrawn then). */
  unsubscribedAt?: string;
  /** When the push service said the subscription is gone (404/410). */
  pushRemovedAt?: string;
}

/** Scoring events pushed to the entries holding their player. */
export const SCORING_EVENTS: ReadonlySet<EventType> = new Set<EventType>([
  "GOAL",
  "ASSIST",
  "PENALTY_SAVE",
  "CLEAN_SHEET",
]);

/** A scoring event waiting in the push queue; `after` is the last entry id already pushed. */
export interface QueuedPush {
  id: number;
  competitionId: number;
  playerId: number;
  eventType: EventType;
  eventId: number;
  queuedAt: string;
  after: number;
  /** A correction: the event was removed after its push may have gone (same tag, "Correction"). */
  removed?: boolean;
  /** Set (checked) by the drainer before its first send: a removal then queues a correction. */
  started?: boolean;
  /**
   * The tag its push carries when not `scored-<eventId>`: an amendment's (and its correction's)
   * is the tag of the told push it amends, so the browser replaces that notification.
   */
  tag?: string;
}

/** The entry fields the settings need. */
export interface NotifyEntry {
  id: number;
  competitionId: number;
  email: string;
  playerIds: number[];
}

function blank(entry: NotifyEntry): NotifyPrefs {
  return {
    entryId: entry.id,
    competitionId: entry.competitionId,
    email: entry.email,
    deadlineEmail: null,
    resultEmail: null,
    pushScored: null,
    pushFinal: null,
    push: null,
    playerIds: entry.playerIds,
  };
}

/** The entry's settings (all off when never set). */
export async function getNotifyPrefs(kv: Deno.Kv, entry: NotifyEntry): Promise<NotifyPrefs> {
  const got = await kv.get<NotifyPrefs>(keys.notifyPrefs(entry.competitionId, entry.id));
  return got.value ?? blank(entry);
}

/** What a change asks: each opt-in on or off (absent: unchanged), and the push target. */
export interface NotifyChange {
  deadlineEmail?: boolean;
  resultEmail?: boolean;
  pushScored?: boolean;
  pushFinal?: boolean;
  /** The browser to push to; null revokes push (both push opt-ins go off). */
  push?: PushTarget | null;
}

/**
 * Applies `change` to the entry's settings: an opt-in turned on records its consent (time and
 * source), one turned off forgets it; push opt-ins need a push target. Returns the settings.
 */
export async function setNotifyPrefs(
  kv: Deno.Kv,
  entry: NotifyEntry,
  change: NotifyChange,
  source: ConsentSource,
  now = new Date(),
): Promise<NotifyPrefs> {
  const key = keys.notifyPrefs(entry.competitionId, entry.id);
  for (;;) {
    const got = await kv.get<NotifyPrefs>(key);
    const prefs: NotifyPrefs = { ...(got.value ?? blank(entry)), playerIds: entry.playerIds };
    if (change.push !== undefined) {
      prefs.push = change.push;
      if (change.push === null) prefs.pushScored = prefs.pushFinal = null;
      else delete prefs.pushRemovedAt;
    }
    for (const kind of NOTIFY_KINDS) {
      const wanted = change[kind];
      if (wanted === undefined) continue;
      if (!wanted) prefs[kind] = null;
      else if (!prefs[kind]) prefs[kind] = { at: now.toISOString(), source };
    }
    if (!prefs.push) prefs.pushScored = prefs.pushFinal = null;
    const res = await kv.atomic().check(got).set(key, prefs).commit();
    if (res.ok) return prefs;
  }
}

/**
 * The one-click unsubscribe: every e-mail opt-in of the entry is withdrawn, with its time.
 * False when the entry has no settings.
 */
export function unsubscribeEmails(
  kv: Deno.Kv,
  cid: number,
  entryId: number,
  now = new Date(),
): Promise<boolean> {
  return updatePrefs(kv, keys.notifyPrefs(cid, entryId), (prefs) => ({
    ...prefs,
    deadlineEmail: null,
    resultEmail: null,
    unsubscribedAt: now.toISOString(),
  }));
}

/** Rewrites existing settings with `change` (null: leave them); false when there are none. */
async function updatePrefs(
  kv: Deno.Kv,
  key: Deno.KvKey,
  change: (prefs: NotifyPrefs) => NotifyPrefs | null,
): Promise<boolean> {
  for (;;) {
    const got = await kv.get<NotifyPrefs>(key);
    if (!got.value) return false;
    const next = change(got.value);
    if (!next) return false;
    if ((await kv.atomic().check(got).set(key, next).commit()).ok) return true;
  }
}

/** Marks `email` bounced (a permanent SMTP failure): no notification goes to it any more. */
export async function markBounced(kv: Deno.Kv, email: string, reason: string, now = new Date()) {
  await kv.set(keys.notifyBounced(email), { at: now.toISOString(), reason: reason.slice(0, 200) });
}

/** When `email` bounced, or null. */
export async function bouncedAt(kv: Deno.Kv, email: string): Promise<string | null> {
  return (await kv.get<{ at: string }>(keys.notifyBounced(email))).value?.at ?? null;
}

/**
 * Removes the push target of an entry when it is still `endpoint` (the push service answered
 * 404/410: the browser dropped it), with its time.
 */
export async function removePushTarget(
  kv: Deno.Kv,
  cid: number,
  entryId: number,
  endpoint: string,
  now = new Date(),
): Promise<void> {
  await updatePrefs(
    kv,
    keys.notifyPrefs(cid, entryId),
    (prefs) =>
      prefs.push?.endpoint !== endpoint ? null : {
        ...prefs,
        push: null,
        pushScored: null,
        pushFinal: null,
        pushRemovedAt: now.toISOString(),
      },
  );
}

/** Every entry's settings in a competition, by entry id, from `after` on (bounded by `limit`). */
export async function listNotifyPrefs(
  kv: Deno.Kv,
  cid: number,
  { after = -1, limit }: { after?: number; limit?: number } = {},
): Promise<Deno.KvEntry<NotifyPrefs>[]> {
  const out: Deno.KvEntry<NotifyPrefs>[] = [];
  const iter = kv.list<NotifyPrefs>({
    start: keys.notifyPrefs(cid, after + 0.5),
    end: [...keys.notifyPrefsOf(cid), Number.MAX_SAFE_INTEGER],
  }, { limit, batchSize: 500 });
  for await (const e of iter) out.push(e);
  return out;
}

/** Which record of "sent" an e-mail kind keeps. */
export const SENT_FIELD = {
  deadlineEmail: "deadlineSentAt",
  resultEmail: "resultSentAt",
} as const;

/**
 * Records the `kind` e-mail of these settings as sent, with `mail` (the outbox write) in the same
 * atomic: false when the settings changed meanwhile (nothing written; read them again).
 */
export async function recordEmailSent(
  kv: Deno.Kv,
  prefs: Deno.KvEntry<NotifyPrefs>,
  kind: keyof typeof SENT_FIELD,
  mail: GroupedWrite,
  now = new Date(),
): Promise<boolean> {
  const op = kv.atomic().check(prefs)
    .set(prefs.key, { ...prefs.value, [SENT_FIELD[kind]]: now.toISOString() });
  for (const c of mail.checks) op.check(c);
  for (const m of mail.mutations) op.mutate(m);
  return (await op.commit()).ok;
}

/** Records the final standings pushed to these settings' browser. */
export async function recordFinalPushed(
  kv: Deno.Kv,
  prefs: Deno.KvEntry<NotifyPrefs>,
  now = new Date(),
): Promise<boolean> {
  const value = { ...prefs.value, finalPushedAt: now.toISOString() };
  return (await kv.atomic().check(prefs).set(prefs.key, value).commit()).ok;
}

/** Marks a kind of notification done for a competition. */
export async function markNotifyDone(kv: Deno.Kv, kind: string, cid: number): Promise<void> {
  await kv.set(keys.notifyDone(kind, cid), new Date().toISOString());
}

/** Whether a kind of notification is done for a competition. */
export async function notifyDone(kv: Deno.Kv, kind: string, cid: number): Promise<boolean> {
  return (await kv.get(keys.notifyDone(kind, cid))).value !== null;
}

/** The tag of a scoring event's push, unless it carries the tag of the event it amends. */
export function scoredTag(item: Pick<QueuedPush, "eventId" | "tag">): string {
  return item.tag ?? `scored-${item.eventId}`;
}

/**
 * Adds to `op`, the atomic that records an event change, what tells the browsers of it (the
 * pushes go later, from `drainPushQueue`; events that score nothing add nothing):
 * - an event added: a queue item, "Your pick scored";
 * - an event removed: when no drainer started on its queue item (nobody was pushed), the item is
 *   deleted, checked, and nothing goes; otherwise a correction is queued, with the tag the
 *   holders saw, so "Correction" replaces their notification;
 * - an amendment (one removed and one added, same player and type: a feed's new version of an
 *   event, its minute changed, say): one notification all the same. The new event is queued in
 *   place of an untold one, and under the tag of a told one, so its push replaces the first.
 *   No correction goes: the player still scored. The inherited tag is kept with the new event
 *   (`push_tags`) for a later amendment or removal, after its queue item is gone.
 * Scans the queue for a removal, normally a handful of items.
 */
export async function queueEventPushes(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  { added, removed }: { added: GameEvent | null; removed: GameEvent | null },
  now = new Date(),
): Promise<void> {
  const told = removed && SCORING_EVENTS.has(removed.eventType)
    ? await takeBackPush(kv, op, removed)
    : null;
  const amends = added && removed && added.playerId === removed.playerId &&
    added.eventType === removed.eventType;
  if (added && SCORING_EVENTS.has(added.eventType)) {
    const tag = amends ? told : null; // an earlier event's tag, never the new event's own
    queueItem(op, added, added.timestamp, { tag });
    if (tag) op.set(keys.pushTag(added.competitionId, added.id), tag);
  }
  if (removed && told && !amends) {
    queueItem(op, removed, now.toISOString(), { removed: true, tag: told });
  }
}

/**
 * Takes a removed event's untold push off the queue in `op` (checked: a drainer advancing it
 * meanwhile fails the caller's atomic, which is tried again), and forgets the tag it inherited.
 * Returns the tag its holders saw, or null when nobody was told: its item had not started, and
 * did not itself amend a told event.
 */
async function takeBackPush(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  event: GameEvent,
): Promise<string | null> {
  const inherited = await kv.get<string>(keys.pushTag(event.competitionId, event.id));
  if (inherited.value !== null) op.check(inherited).delete(inherited.key);
  for await (const item of kv.list<QueuedPush>({ prefix: keys.pushQueue() })) {
    if (item.value.eventId !== event.id || item.value.removed) continue;
    if (item.value.started) return scoredTag(item.value);
    op.check(item).delete(item.key);
    return item.value.tag ?? null;
  }
  // Its pushes went, and their item with them.
  return inherited.value ?? scoredTag({ eventId: event.id });
}

/** Adds to `op` a new queue item of `event`, as of `queuedAt`. */
function queueItem(
  op: Deno.AtomicOperation,
  event: GameEvent,
  queuedAt: string,
  { removed = false, tag = null }: { removed?: boolean; tag?: string | null } = {},
) {
  const id = timeOrderedId();
  const queued: QueuedPush = {
    id,
    competitionId: event.competitionId,
    playerId: event.playerId,
    eventType: event.eventType,
    eventId: event.id,
    queuedAt,
    after: -1,
    ...(removed ? { removed } : {}),
    ...(tag && tag !== scoredTag({ eventId: event.id }) ? { tag } : {}),
  };
  op.set(keys.pushQueued(id), queued);
}

/** The queued scoring events, oldest first. */
export async function listPushQueue(kv: Deno.Kv, limit = 20): Promise<Deno.KvEntry<QueuedPush>[]> {
  const out: Deno.KvEntry<QueuedPush>[] = [];
  for await (const e of kv.list<QueuedPush>({ prefix: keys.pushQueue() }, { limit })) out.push(e);
  return out;
}

/**
 * Moves a queued event's progress to `after`, marking it started (null: changed or removed
 * meanwhile). The drainer calls it once before its first send, so a removal of the event that
 * commits first leaves nothing to send, and one after it queues a correction.
 */
export async function advancePushQueue(
  kv: Deno.Kv,
  item: Deno.KvEntry<QueuedPush>,
  after: number,
): Promise<Deno.KvEntry<QueuedPush> | null> {
  const value = { ...item.value, after, started: true };
  const res = await kv.atomic().check(item).set(item.key, value).commit();
  return res.ok ? { ...item, value, versionstamp: res.versionstamp } : null;
}

/** Removes a queued event once every push of it went. */
export async function finishPushQueue(kv: Deno.Kv, item: Deno.KvEntry<QueuedPush>): Promise<void> {
  await kv.atomic().check(item).delete(item.key).commit();
}

/**
 * Registers the drainer that `pushQueued` wakes for `kv` (null: none). The kick rides on the
 * store's state (store_state.ts), one per Services, as the events' writes get only the store.
 */
export function onPushQueued(kv: Deno.Kv, kick: (() => void) | null): void {
  storeState(kv).pushKick = kick;
}

/** Wakes this isolate's push drainer after a queued event committed (nothing when none runs). */
export function pushQueued(kv: Deno.Kv): void {
  storeState(kv).pushKick?.();
}
