/**
 * What the notifications keep in one isolate between calls, made once per Services by
 * `createServices` (lib/services.ts): the push drainer's kick, the store's VAPID and unsubscribe
 * keys once read, the signed VAPID headers and the push worker pool; and what the notifications
 * work (run.ts, retry.ts) is given and reports.
 */
import type { VapidConfig } from "@/lib/config.ts";
import type { Mailer } from "@/lib/email/mailer.ts";
import type { VapidHeaders } from "./push.ts";
import { PushPool } from "./push_pool.ts";

export interface NotifyState {
  /** The VAPID keys once read from (or made in) the store (secrets.ts). */
  vapidKeys: Promise<VapidConfig> | null;
  /** The unsubscribe tokens' signing key once read from (or made in) the store (secrets.ts). */
  unsubscribeKey: Promise<CryptoKey> | null;
  /** Signed VAPID headers by key and push service, reused an hour (push.ts). */
  vapidHeaders: VapidHeaders;
  /** The workers large sends go through (push_pool.ts). */
  pool: PushPool;
}

/** A fresh NotifyState (nothing read, no worker started). */
export function createNotifyState(): NotifyState {
  const vapidHeaders: VapidHeaders = new Map();
  return {
    vapidKeys: null,
    unsubscribeKey: null,
    vapidHeaders,
    pool: new PushPool(vapidHeaders),
  };
}

/** What the notifications work needs: the store, the mailer, this isolate's state. */
export interface NotifyDeps {
  kv: Deno.Kv;
  mailer: Mailer;
  /** This isolate's keys, VAPID headers and push workers (state.ts). */
  notify: NotifyState;
  /** The VAPID pair, and whether pushes may go to this machine (PUSH_ALLOW_LOCAL, tests). */
  config?: { vapid?: VapidConfig | null; pushAllowLocal?: boolean };
  /** Settings read per page of a competition's push queue (PAGE; tests take a small one). */
  pushPage?: number;
}

/** What one run did. */
export interface NotifyReport {
  reminders: number;
  results: number;
  finals: number;
  pushes: number;
  gone: number;
  failed: number;
  /** Failed sends kept for a later try. */
  retrying: number;
  /** Kept pushes dropped (past their TTL, no tries left, push revoked, entry refunded). */
  dropped: number;
}
