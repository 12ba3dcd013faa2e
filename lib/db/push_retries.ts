/**
 * Pushes to try again: one record per (competition, entry, message tag) for a push the push
 * service refused for now (429, 5xx) or never answered. The record is written before the send
 * that failed is counted done (the queue page advanced, the competition's results marked done),
 * and each retry removes or advances it in one versionstamp-checked atomic, so a crash repeats at
 * most one send and loses none. A repeated send shows once: the browser replaces a notification
 * of the same `tag` (`scored-<eventId>`, `final-<competitionId>`).
 *
 * Each record has its place in due-time order, `["push_retry_due", nextAt, competition, entry,
 * tag]`, written and deleted in the same atomics as the record: a run reads the pushes that are
 * due and the time of the next one, not every kept push (thousands during a push service's
 * outage).
 */
import type { NotifyPrefs } from "@/lib/db/notifications.ts";
import { keys } from "@/lib/store/keys.ts";
import { getManyEntries } from "@/lib/store/util.ts";

/** Which opt-in a retried push belongs to. */
export type PushRetryKind = "scored" | "final";

/** A push waiting for its next try. */
export interface PushRetry {
  competitionId: number;
  entryId: number;
  kind: PushRetryKind;
  /**
   * The scoring event a "scored" push tells of (records kept before it was added have only the
   * tag, `scored-<eventId>`); an amendment's tag names the event it amends.
   */
  eventId?: number;
  /** A "Correction" of a removed scoring event (it replaces the kept push of its tag). */
  removed?: boolean;
  /** The notification as first sent (its tag names the record). */
  message: { title: string; body: string; url: string; tag: string };
  /** Sends that failed so far. */
  attempts: number;
  /** When to try next (ms since the epoch). */
  nextAt: number;
  /** Past this (the message's TTL) it is dropped (ms since the epoch). */
  expiresAt: number;
  /** The last failure: a status or a network error. */
  lastError: string;
}

function retryKey(r: PushRetry): Deno.KvKey {
  return keys.pushRetry(r.competitionId, r.entryId, r.message.tag);
}

function dueKey(r: PushRetry): Deno.KvKey {
  return keys.pushRetryDue(r.nextAt, r.competitionId, r.entryId, r.message.tag);
}

/** Writes `next` over `kept` (none: a new record) in `op`, moving its place in due-time order. */
function setRetry(op: Deno.AtomicOperation, next: PushRetry, kept: PushRetry | null): void {
  if (kept && kept.nextAt !== next.nextAt) op.delete(dueKey(kept));
  op.set(retryKey(next), next).set(dueKey(next), true);
}

/**
 * Keeps `retry` for a later try unless one for the same entry and message is kept already (a
 * send repeated after a crash): false then, and the kept one goes on. A push replaces a kept
 * one of its tag that it supersedes: a correction one that is not, an amendment (another event
 * under the same tag) the push of the event it amends, which is no longer wanted.
 */
export async function schedulePushRetry(kv: Deno.Kv, retry: PushRetry): Promise<boolean> {
  const key = retryKey(retry);
  for (;;) {
    const kept = await kv.get<PushRetry>(key);
    if (kept.value && !supersedes(retry, kept.value)) return false;
    const op = kv.atomic().check(kept);
    setRetry(op, retry, kept.value);
    if ((await op.commit()).ok) return true;
  }
}

function supersedes(push: PushRetry, kept: PushRetry): boolean {
  return !kept.removed && (push.removed === true || push.eventId !== kept.eventId);
}

/** The kept retries (of competition `cid` when given), by competition, entry and tag. */
export async function listPushRetries(
  kv: Deno.Kv,
  { cid, limit }: { cid?: number; limit?: number } = {},
): Promise<Deno.KvEntry<PushRetry>[]> {
  const prefix = cid === undefined ? keys.pushRetries() : keys.pushRetriesOf(cid);
  const out: Deno.KvEntry<PushRetry>[] = [];
  for await (const e of kv.list<PushRetry>({ prefix }, { limit, batchSize: 500 })) out.push(e);
  return out;
}

/**
 * The kept retries due at `at` (ms since the epoch), soonest first, at most `limit`. A place in
 * the order whose record is gone or moved (no code of today leaves one) is deleted on the way,
 * unless it was written again meanwhile.
 */
export async function listDuePushRetries(
  kv: Deno.Kv,
  at: number,
  limit: number,
): Promise<Deno.KvEntry<PushRetry>[]> {
  const places: Deno.KvEntry<unknown>[] = [];
  const selector = { prefix: keys.pushRetriesDue(), end: [...keys.pushRetriesDue(), at + 1] };
  for await (const e of kv.list(selector, { limit, batchSize: 500 })) places.push(e);
  const records = await getManyEntries<PushRetry>(
    kv,
    places.map(({ key: [, , cid, entryId, tag] }) =>
      keys.pushRetry(Number(cid), Number(entryId), String(tag))
    ),
  );
  const due: Deno.KvEntry<PushRetry>[] = [];
  for (const [i, record] of records.entries()) {
    if (record.value?.nextAt === places[i].key[1]) due.push(record as Deno.KvEntry<PushRetry>);
    else await kv.atomic().check(places[i]).delete(places[i].key).commit();
  }
  return due;
}

/** When the next kept push is due (ms since the epoch), or null when none is kept. */
export async function nextPushRetryAt(kv: Deno.Kv): Promise<number | null> {
  for await (const e of kv.list({ prefix: keys.pushRetriesDue() }, { limit: 1 })) {
    return Number(e.key[1]);
  }
  return null;
}

/** Moves a retry to its next try (false: it changed or went meanwhile; nothing written). */
export async function advancePushRetry(
  kv: Deno.Kv,
  retry: Deno.KvEntry<PushRetry>,
  next: PushRetry,
): Promise<boolean> {
  const op = kv.atomic().check(retry);
  setRetry(op, next, retry.value);
  return (await op.commit()).ok;
}

/**
 * Removes a retry that went or is given up; with `finalPushed` (a final-standings push that went)
 * the entry's settings record it pushed in the same atomic. False when either changed meanwhile.
 */
export async function removePushRetry(
  kv: Deno.Kv,
  retry: Deno.KvEntry<PushRetry>,
  finalPushed?: { prefs: Deno.KvEntry<NotifyPrefs>; now: Date },
): Promise<boolean> {
  const op = kv.atomic().check(retry).delete(retry.key).delete(dueKey(retry.value));
  if (finalPushed) {
    const { prefs, now } = finalPushed;
    op.check(prefs).set(prefs.key, { ...prefs.value, finalPushedAt: now.toISOString() });
  }
  return (await op.commit()).ok;
}

/**
 * Migration: gives the retries kept before the due-time order existed their place in it. Each
 * place is set only while its record is unchanged, so a run at the same time as a drainer
 * leaves no place behind for a record it moved or removed.
 */
export async function migratePushRetryOrder(kv: Deno.Kv): Promise<number> {
  let placed = 0;
  for await (const e of kv.list<PushRetry>({ prefix: keys.pushRetries() })) {
    if ((await kv.atomic().check(e).set(dueKey(e.value), true).commit()).ok) placed++;
  }
  return placed;
}
