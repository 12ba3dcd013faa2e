/**
 * The one rate limiter of the app, kept in KV so every isolate and process shares it: one record
 * per (bucket, client) holding the times of its recent hits (a sliding window), changed in one
 * checked atomic so parallel requests never slip past the limit. Used for the login throttle,
 * payment intents, analytics and test e-mails. Limits a crowd behind one address shares (a
 * stadium's Wi-Fi, a carrier's NAT) are ceilings, counted in slots (`prepareHits`).
 */
import { commitGrouped } from "@/lib/store/group_commit.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { retryAtomic } from "@/lib/store/util.ts";

export interface RateLimit {
  /** What is limited, e.g. "test_email". */
  bucket: string;
  /** Who is limited, e.g. the client's address. */
  client: string;
  /** Hits allowed within the window. */
  limit: number;
  windowMs: number;
}

export type RateLimitResult =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

/** The answer of `hitRateLimits`: a refusal names the first limit that was full. */
export type RateLimitsResult =
  | { allowed: true; at: number; remaining: number }
  | { allowed: false; retryAfterSeconds: number; bucket: string };

interface HitLog {
  /** Times (ms since epoch) of the hits still inside the window, oldest first. */
  hits: number[];
}

/** A client text that is too long for a key shares one record with every other such client. */
function clientKeyText(client: string): string {
  return isKeyText(client) ? client : "oversized";
}

function keyOf({ bucket, client }: Pick<RateLimit, "bucket" | "client">): Deno.KvKey {
  return keys.rateLimit(bucket, clientKeyText(client));
}

function liveHits(entry: Deno.KvEntryMaybe<HitLog>, windowMs: number, now: number): number[] {
  return (entry.value?.hits ?? []).filter((t) => t > now - windowMs).sort((a, b) => a - b);
}

/**
 * Counts one hit at `now` against every limit of `limits` when each has room, in one atomic;
 * otherwise counts nothing and says, for the first full limit, how many seconds remain until its
 * oldest hit leaves the window. `at` identifies the hits for `undoHits`.
 * @example const r = await hitRateLimits(kv, [{ bucket: "login", client: ip, limit: 20, windowMs }]);
 */
export function hitRateLimits(
  kv: Deno.Kv,
  limits: readonly RateLimit[],
  now = Date.now(),
): Promise<RateLimitsResult> {
  const keyList = limits.map(keyOf);
  return retryAtomic("count the request", async () => {
    const entries = await kv.getMany<HitLog[]>(keyList);
    const logs = limits.map((limit, i) => liveHits(entries[i], limit.windowMs, now));
    const full = limits.findIndex((limit, i) => logs[i].length >= limit.limit);
    if (full >= 0) {
      const { limit, windowMs, bucket } = limits[full];
      const hits = logs[full];
      const retryAfterMs = hits[hits.length - limit] + windowMs - now;
      return {
        allowed: false,
        bucket,
        retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
      };
    }
    const op = kv.atomic();
    limits.forEach((limit, i) => {
      op.check(entries[i]).set(keyList[i], { hits: [...logs[i], now] }, {
        expireIn: limit.windowMs,
      });
    });
    const remaining = Math.min(...limits.map((limit, i) => limit.limit - logs[i].length - 1));
    return (await op.commit()).ok ? { allowed: true, at: now, remaining } : undefined;
  });
}

/**
 * Counts one hit of `client` in `bucket` at `now` when it is within the limit; otherwise counts
 * nothing and says how many seconds remain until the oldest hit leaves the window.
 * @example const r = await hitRateLimit(kv, { bucket: "test_email", client: ip, limit: 5, windowMs: 600_000 });
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  limit: RateLimit,
  now = Date.now(),
): Promise<RateLimitResult> {
  const result = await hitRateLimits(kv, [limit], now);
  return result.allowed
    ? { allowed: true, remaining: result.remaining }
    : { allowed: false, retryAfterSeconds: result.retryAfterSeconds };
}

/** Takes back the hits that `hitRateLimits` counted at `at` (one per limit), e.g. a good login. */
export async function undoHits(
  kv: Deno.Kv,
  limits: readonly RateLimit[],
  at: number,
): Promise<void> {
  const keyList = limits.map(keyOf);
  await retryAtomic("take back the request", async () => {
    const entries = await kv.getMany<HitLog[]>(keyList);
    const op = kv.atomic();
    entries.forEach((entry, i) => {
      const hits = entry.value?.hits ?? [];
      const index = hits.indexOf(at);
      if (index < 0) return;
      const rest = hits.filter((_, j) => j !== index);
      op.check(entry);
      if (rest.length === 0) op.delete(keyList[i]);
      else op.set(keyList[i], { hits: rest }, { expireIn: limits[i].windowMs });
    });
    return (await op.commit()).ok ? true : undefined;
  });
}

/** Forgets every hit of `client` in `bucket` (e.g. the failures of a login that then succeeded). */
export async function clearRateLimit(
  kv: Deno.Kv,
  limit: Pick<RateLimit, "bucket" | "client">,
): Promise<void> {
  await kv.delete(keyOf(limit));
}

/** A ceiling's hits are counted per slot of this length (a record of at most window / slot counts). */
const CEILING_SLOT_MS = 10_000;

interface SlotLog {
  /** [slot start (ms since epoch), hits in that slot], oldest first. */
  slots: [number, number][];
}

/** The hits a limit may still take, or the refusal, and the checks and writes that count one. */
export type PreparedHits =
  | { allowed: true; checks: Deno.AtomicCheck[]; mutations: Deno.KvMutation[] }
  | { allowed: false; retryAfterSeconds: number; bucket: string };

function refusal(bucket: string, retryAfterMs: number): PreparedHits {
  return { allowed: false, bucket, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
}

/**
 * Reads `limits` (sliding logs of each hit, checked when counted) and `ceilings` (large limits,
 * e.g. per address, counted in 10 s slots and written without a check, so a crowd behind one
 * address never contends on its record; hits at the same instant may be undercounted by a few)
 * and says whether one more hit fits every one. When it does, the checks and mutations that count
 * the hit, to commit with the caller's own write (e.g. `commitGrouped`): a failed check there
 * means a log moved meanwhile, so prepare again (with `consistency: "strong"`) and retry.
 * @example const p = await prepareHits(kv, [perEmail], [perAddress]); if (p.allowed) await commitGrouped(kv, { checks: p.checks, mutations: [...p.mutations, ...mine] });
 */
export async function prepareHits(
  kv: Deno.Kv,
  limits: readonly RateLimit[],
  ceilings: readonly RateLimit[],
  options: { now?: number; consistency?: Deno.KvConsistencyLevel } = {},
): Promise<PreparedHits> {
  const now = options.now ?? Date.now();
  const all = [...limits, ...ceilings];
  if (all.length === 0) return { allowed: true, checks: [], mutations: [] };
  const keyList = all.map(keyOf);
  const entries = await kv.getMany<unknown[]>(keyList, {
    consistency: options.consistency ?? "eventual",
  });
  const checks: Deno.AtomicCheck[] = [];
  const mutations: Deno.KvMutation[] = [];
  for (const [i, limit] of limits.entries()) {
    const hits = liveHits(entries[i] as Deno.KvEntryMaybe<HitLog>, limit.windowMs, now);
    if (hits.length >= limit.limit) {
      return refusal(limit.bucket, hits[hits.length - limit.limit] + limit.windowMs - now);
    }
    checks.push(entries[i]);
    mutations.push({
      type: "set",
      key: keyList[i],
      value: { hits: [...hits, now] },
      expireIn: limit.windowMs,
    });
  }
  for (const [j, ceiling] of ceilings.entries()) {
    const i = limits.length + j;
    const stored = (entries[i].value as SlotLog | null)?.slots ?? [];
    const slots = stored.filter(([start]) => start > now - ceiling.windowMs);
    const count = slots.reduce((sum, [, n]) => sum + n, 0);
    if (count >= ceiling.limit) {
      // The hits leave with their slots: wait until enough of the oldest slots have left.
      let left = count;
      const slot = slots.find(([, n]) => (left -= n) < ceiling.limit)!;
      return refusal(ceiling.bucket, slot[0] + ceiling.windowMs - now);
    }
    const start = now - (now % CEILING_SLOT_MS);
    const last = slots[slots.length - 1];
    const counted: [number, number][] = last?.[0] === start
      ? [...slots.slice(0, -1), [start, last[1] + 1]]
      : [...slots, [start, 1]];
    mutations.push({
      type: "set",
      key: keyList[i],
      value: { slots: counted },
      expireIn: ceiling.windowMs,
    });
  }
  return { allowed: true, checks, mutations };
}

/**
 * Commits `mutations` (the caller's own write) with the hits `prepared` counts, in one grouped
 * write; when a log moved meanwhile, prepares again from strong reads and retries. Answers the
 * refusal when the limits filled up meanwhile (nothing is written then).
 */
export async function commitWithHits(
  kv: Deno.Kv,
  limits: readonly RateLimit[],
  ceilings: readonly RateLimit[],
  prepared: PreparedHits,
  mutations: Deno.KvMutation[] = [],
): Promise<PreparedHits> {
  let hits = prepared;
  while (hits.allowed) {
    const ok = await commitGrouped(kv, {
      checks: hits.checks,
      mutations: [...hits.mutations, ...mutations],
    });
    if (ok) return hits;
    hits = await prepareHits(kv, limits, ceilings, { consistency: "strong" });
  }
  return hits;
}
