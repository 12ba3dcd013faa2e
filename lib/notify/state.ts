/**
 * What the notifications keep in one isolate between calls, made once per Services by
 * `createServices` (lib/services.ts): the push drainer's kick, the store's VAPID and unsubscribe
 * keys once read, the signed VAPID headers and the push worker pool.
 */
import type { VapidConfig } from "@/lib/config.ts";
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
