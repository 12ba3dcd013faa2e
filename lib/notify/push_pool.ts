/**
 * Sends many pushes at once: small sends run here, large ones are split in batches over a few
 * workers (push_worker.ts), one per core up to four, since each message's encryption (an ECDH on
 * P-256) costs about a millisecond and a goal in a big contest means thousands of them. Where
 * workers cannot start, everything runs here. Idle workers stop after a few seconds.
 */
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
import type { PushBatch } from "./push_worker.ts";

/** Fewer pushes than this go from this isolate. */
const POOL_FROM = 200;
const BATCH = 100;
const IN_THREAD_CONCURRENCY = 64;
const IDLE_MS = 5_000;

interface PoolWorker {
  worker: Worker;
}

type Waiting = { resolve(results: PushResult[]): void; reject(err: unknown): void };

function poolSize(): number {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency ?? 1 : 1;
  return Math.max(1, Math.min(4, cores));
}

/** One isolate's push workers (made by `createNotifyState`, state.ts), started on a large send. */
export class PushPool {
  #pool: PoolWorker[] | null = null;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** Large sends under way (the workers stop only when none is). */
  #active = 0;
  readonly #waiting = new Map<number, Waiting>();
  #lastBatch = 0;
  /** Push-service hosts resolved by small sends (workers keep their own). */
  readonly #resolved: ResolvedHosts = new Map();

  /** `vapidHeaders`: the signed headers small sends (sent in this isolate) reuse. */
  constructor(readonly vapidHeaders: VapidHeaders) {}

  #start(): PoolWorker[] | null {
    if (typeof Worker === "undefined") return null;
    try {
      return Array.from({ length: poolSize() }, () => {
        const worker = new Worker(new URL("./push_worker.ts", import.meta.url), {
          type: "module",
        });
        const member: PoolWorker = { worker };
        worker.onmessage = (event: MessageEvent<{ id: number; results: PushResult[] }>) => {
          this.#waiting.get(event.data.id)?.resolve(event.data.results);
          this.#waiting.delete(event.data.id);
        };
        worker.onerror = (event) => {
          event.preventDefault();
          for (const w of this.#waiting.values()) {
            w.reject(new Error(`push worker: ${event.message}`));
          }
          this.#waiting.clear();
          this.close();
        };
        return member;
      });
    } catch {
      return null;
    }
  }

  /** Stops the workers (they start again on the next large send). */
  close(): void {
    clearTimeout(this.#idleTimer);
    for (const member of this.#pool ?? []) member.worker.terminate();
    this.#pool = null;
  }

  #sendBatch(member: PoolWorker, batch: Omit<PushBatch, "id">): Promise<PushResult[]> {
    const id = ++this.#lastBatch;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      member.worker.postMessage({ id, ...batch });
    });
  }

  /** Sends every item where `policy` lets it go; the results are in the items' order. */
  async send(
    items: { target: PushTarget; message: PushMessage }[],
    vapid: VapidConfig,
    policy: OutboundPolicy,
  ): Promise<PushResult[]> {
    const outbound = { policy, resolved: this.#resolved };
    const results: PushResult[] = new Array(items.length);
    if (items.length < POOL_FROM || !(this.#pool ??= this.#start())) {
      await eachLimited(items.map((_, i) => i), IN_THREAD_CONCURRENCY, async (i) => {
        results[i] = await sendPush(
          items[i].target,
          items[i].message,
          vapid,
          this.vapidHeaders,
          outbound,
        );
      });
      return results;
    }
    clearTimeout(this.#idleTimer);
    const workers = this.#pool;
    this.#active++;
    const starts: number[] = [];
    for (let i = 0; i < items.length; i += BATCH) starts.push(i);
    let next = 0;
    try {
      await Promise.all(workers.map(async (member) => {
        while (next < starts.length) {
          const from = starts[next++];
          const answer = await this.#sendBatch(member, {
            vapid,
            policy,
            items: items.slice(from, from + BATCH),
          });
          answer.forEach((r, k) => results[from + k] = r);
        }
      }));
    } finally {
      if (--this.#active === 0) {
        this.#idleTimer = setTimeout(() => this.close(), IDLE_MS);
        Deno.unrefTimer(this.#idleTimer);
      }
    }
    return results;
  }
}
