/**
 * The one rate limiter of the app, kept in KV so every isolate and process shares it: one record
 * per (bucket, client) holding the times of its recent hits (a sliding window), changed in one
 * checked atomic so parallel requests never slip past the limit. Used for the login throttle,
 * payment intents and test e-mails.
 */
import { isKeyText, keys } from "./keys.ts";
import { retryAtomic } from "./util.ts";

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
