/**
 * Worker side of `PushPool.send` (push_pool.ts): encrypts and sends a batch of pushes, a few at a
 * time, and answers each one's result. Encryption costs an ECDH per message; several workers
 * spread it over the cores while the isolate serving requests stays free.
 */
/// <reference lib="deno.worker" />
import type { VapidConfig } from "@/lib/config.ts";
import type { PushTarget } from "@/lib/db/notifications.ts";
import {
  eachLimited,
  type PushMessage,
  type PushResult,
  type ResolvedHosts,
  sendPush,
  type VapidHeaders,
} from "./push.ts";
import type { OutboundPolicy } from "@/lib/net/public_url.ts";

/** A batch to send. */
export interface PushBatch {
  id: number;
  vapid: VapidConfig;
  policy: OutboundPolicy;
  items: { target: PushTarget; message: PushMessage }[];
}

/** Requests in flight per worker. */
const CONCURRENCY = 32;

/** Answers the batches posted to this worker, its signed VAPID headers kept between them. */
function serveBatches(): void {
  const vapidHeaders: VapidHeaders = new Map();
  const resolved: ResolvedHosts = new Map();
  self.onmessage = async (event: MessageEvent<PushBatch>) => {
    const { id, vapid, policy, items } = event.data;
    const results: PushResult[] = new Array(items.length);
    const order = items.map((_, i) => i);
    await eachLimited(order, CONCURRENCY, async (i) => {
      results[i] = await sendPush(items[i].target, items[i].message, vapid, vapidHeaders, {
        policy,
        resolved,
      });
    });
    self.postMessage({ id, results });
  };
}

serveBatches();
