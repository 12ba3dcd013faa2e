/**
 * Pushes to try again: one record per (competition, entry, message tag) for a push the push
 * service refused for now (429, 5xx) or never answered. The record is written before the send
 * that failed is counted done (the queue page advanced, the competition's results marked done),
 * and each retry removes or advances it in one versionstamp-checked atomic, so a crash repeats at
 * most one send and loses none. A repeated send shows once: the browser replaces a notification
 * of the same `tag` (`scored-<eventId>`, `final-<competitionId>`).
 */
import type { NotifyPrefs } from "@/lib/db/notifications.ts";
import { keys } from "@/lib/store/keys.ts";

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
    if ((await kv.atomic().check(kept).set(key, retry).commit()).ok) return true;
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

/** Moves a retry to its next try (false: it changed or went meanwhile; nothing written). */
export async function advancePushRetry(
  kv: Deno.Kv,
  retry: Deno.KvEntry<PushRetry>,
  next: PushRetry,
): Promise<boolean> {
  return (await kv.atomic().check(retry).set(retry.key, next).commit()).ok;
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
  const op = kv.atomic().check(retry).delete(retry.key);
  if (finalPushed) {
    const { prefs, now } = finalPushed;
    op.check(prefs).set(prefs.key, { ...prefs.value, finalPushedAt: now.toISOString() });
  }
  return (await op.commit()).ok;
}
