/**
 * Pushes tried again: a push the push service refused for now (429, 500–599) or that got no
 * answer (timeout, connection) is kept (lib/db/push_retries.ts) and sent again after 30 s, 2 min
 * and 10 min, or when a 429/503's `Retry-After` says (bounded), never past the message's TTL.
 * Permanent refusals (400, 401/403 VAPID refused, 413) are logged and not tried again; 404/410
 * remove the subscription. A retry is dropped when its entry revoked push, turned the opt-in off,
 * or was refunded, or (a "scored" push) when its event was removed: its correction goes instead.
 * Runs under the push queue's lease (`drainPushQueue`), one runner at a time.
 */
import type { Competition } from "@/lib/domain/types.ts";
import { getEntry } from "@/lib/db/entries.ts";
import { type NotifyPrefs, removePushTarget } from "@/lib/db/notifications.ts";
import {
  advancePushRetry,
  listDuePushRetries,
  listPushRetries,
  type PushRetry,
  removePushRetry,
  schedulePushRetry,
} from "@/lib/db/push_retries.ts";
import { keys } from "@/lib/store/keys.ts";
import { eachLimited, type PushFailure, pushPolicy, TTL_SECONDS } from "./push.ts";
import type { NotifyDeps, NotifyReport } from "./state.ts";
import { vapidKeys } from "./secrets.ts";

/** The waits before the second, third and fourth send (then the push is given up). */
export const RETRY_BACKOFF_MS = [30_000, 120_000, 600_000] as const;
/** How long a message is worth sending: the TTL the push services are given (push.ts). */
export const PUSH_TTL_MS = TTL_SECONDS * 1000;
/** A `Retry-After` is honoured within these bounds. */
const RETRY_AFTER_MIN_MS = 1_000;
const RETRY_AFTER_MAX_MS = 20 * 60_000;
/** Retries sent per run at most (the rest wait for the next). */
const RETRIES_PER_RUN = 2_000;

/** Whether a failed push may go later: 429, 500–599, or no answer (timeout, connection). */
export function isTransientFailure(failure: PushFailure): boolean {
  if (failure.network) return true;
  const status = failure.failed;
  return typeof status === "number" && (status === 429 || (status >= 500 && status <= 599));
}

/** A `Retry-After` (seconds or an HTTP date) as a wait in ms, bounded; null when absent or bad. */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, ms));
}

/**
 * When to send a push again after its `attempts`-th send failed with `failure` at `now`, or why
 * not (a permanent refusal, no tries left, or the next try would be past `expiresAt`).
 */
export function planRetry(
  failure: PushFailure,
  attempts: number,
  now: number,
  expiresAt: number,
): { at: number } | { drop: string } {
  if (!isTransientFailure(failure)) return { drop: "refused for good" };
  if (attempts > RETRY_BACKOFF_MS.length) return { drop: `given up after ${attempts} tries` };
  const status = failure.failed;
  const asked = status === 429 || status === 503 ? retryAfterMs(failure.retryAfter, now) : null;
  const at = now + (asked ?? RETRY_BACKOFF_MS[attempts - 1]);
  return at < expiresAt ? { at } : { drop: "its next try would be past its TTL" };
}

/** A push whose send just failed, as its retry record would keep it (`attempts` counts that send). */
export type FailedPush = Omit<PushRetry, "nextAt" | "lastError">;

/**
 * After a failed send: keeps the push for its next try (writes its retry record, or advances
 * `kept`, the record it was sent from), or logs why not and removes `kept`. True when kept.
 */
export async function afterFailedPush(
  kv: Deno.Kv,
  push: FailedPush,
  failure: PushFailure,
  kept: Deno.KvEntry<PushRetry> | null,
  now: number,
): Promise<boolean> {
  const plan = planRetry(failure, push.attempts, now, push.expiresAt);
  const what = `Push ${push.message.tag} to entry ${push.entryId} failed (${failure.failed})`;
  if ("drop" in plan) {
    console.error(`${what}, not tried again: ${plan.drop}`);
    if (kept) await removePushRetry(kv, kept);
    return false;
  }
  const next: PushRetry = { ...push, nextAt: plan.at, lastError: String(failure.failed) };
  const ok = kept ? await advancePushRetry(kv, kept, next) : await schedulePushRetry(kv, next);
  if (ok) console.warn(`${what}; try ${push.attempts + 1} at ${new Date(plan.at).toISOString()}`);
  return ok;
}

/** Whether the event of a "scored" push is still recorded. */
async function eventExists(kv: Deno.Kv, retry: PushRetry): Promise<boolean> {
  const eventId = retry.eventId ?? /^scored-(\d+)$/.exec(retry.message.tag)?.[1];
  if (eventId === undefined) return true;
  return (await kv.get(keys.event(retry.competitionId, Number(eventId)))).versionstamp !== null;
}

/** Why a kept push should no longer go (null: it should). */
async function whyNotWanted(
  deps: NotifyDeps,
  retry: PushRetry,
  prefs: NotifyPrefs | null,
): Promise<string | null> {
  if (!prefs?.push) return "push revoked";
  if (!(retry.kind === "scored" ? prefs.pushScored : prefs.pushFinal)) return "opted out";
  if (retry.kind === "final" && prefs.finalPushedAt) return "already pushed";
  if (retry.kind === "scored" && !retry.removed && !await eventExists(deps.kv, retry)) {
    return "event removed";
  }
  const entry = await getEntry(deps.kv, retry.entryId);
  if (!entry) return "entry gone";
  return entry.refundedAt ? "entry refunded" : null;
}

/** Removes a retry that went, recording a final-standings push on the entry's settings with it. */
async function finishSent(
  deps: NotifyDeps,
  retry: Deno.KvEntry<PushRetry>,
  prefs: Deno.KvEntry<NotifyPrefs>,
  now: Date,
): Promise<void> {
  if (retry.value.kind !== "final") return void await removePushRetry(deps.kv, retry);
  for (let tries = 0; tries < 5; tries++) {
    if (await removePushRetry(deps.kv, retry, { prefs, now })) return;
    const again = await deps.kv.get<NotifyPrefs>(prefs.key);
    if (!again.value) break;
    prefs = again; // the settings changed meanwhile: record it on what they are now
  }
  await removePushRetry(deps.kv, retry);
}

/**
 * Sends the kept pushes whose time has come (at `now`), each record then removed (sent, given
 * up, dropped) or moved to its next try. Call it under the push queue's lease.
 */
export async function retryPushes(
  deps: NotifyDeps,
  now: Date,
  until: number,
  report: NotifyReport,
): Promise<void> {
  const t = now.getTime();
  const due = await listDuePushRetries(deps.kv, t, RETRIES_PER_RUN);
  const sends: { retry: Deno.KvEntry<PushRetry>; prefs: Deno.KvEntry<NotifyPrefs> }[] = [];
  for (const retry of due) {
    if (Date.now() > until) break;
    const r = retry.value;
    const prefs = await deps.kv.get<NotifyPrefs>(keys.notifyPrefs(r.competitionId, r.entryId));
    const why = t >= r.expiresAt ? "older than its TTL" : await whyNotWanted(deps, r, prefs.value);
    if (!why) {
      sends.push({ retry, prefs: prefs as Deno.KvEntry<NotifyPrefs> });
      continue;
    }
    console.warn(`Push ${r.message.tag} to entry ${r.entryId} dropped: ${why}`);
    if (await removePushRetry(deps.kv, retry)) report.dropped++;
  }
  if (sends.length === 0) return;
  const vapid = await vapidKeys(deps.kv, deps.notify, deps.config ?? {});
  // The push service keeps a retry only for what is left of the message's TTL.
  const results = await deps.notify.pool.send(
    sends.map(({ retry, prefs }) => ({
      target: prefs.value.push!,
      message: { ...retry.value.message, ttl: Math.ceil((retry.value.expiresAt - t) / 1000) },
    })),
    vapid,
    pushPolicy(deps.config),
  );
  await eachLimited(sends.map((_, i) => i), 16, async (i) => {
    const [{ retry, prefs }, result] = [sends[i], results[i]];
    if (result === "sent") {
      report.pushes++;
      if (retry.value.kind === "final") report.finals++;
      await finishSent(deps, retry, prefs, now);
    } else if (result === "gone") {
      report.gone++;
      await removePushTarget(
        deps.kv,
        retry.value.competitionId,
        retry.value.entryId,
        prefs.value.push!.endpoint,
      );
      await removePushRetry(deps.kv, retry);
    } else {
      report.failed++;
      const push = { ...retry.value, attempts: retry.value.attempts + 1 };
      if (!await afterFailedPush(deps.kv, push, result, retry, t)) report.dropped++;
    }
  });
}

/** The entries of `c` whose final-standings push waits for a retry (not to be sent anew). */
export async function finalsRetrying(kv: Deno.Kv, c: Competition): Promise<Set<number>> {
  const kept = await listPushRetries(kv, { cid: c.id });
  return new Set(kept.filter((r) => r.value.kind === "final").map((r) => r.value.entryId));
}
