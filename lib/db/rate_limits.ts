/**
 * Rate limits kept in KV: one record per (bucket, client) holding the times of its recent hits
 * (a sliding window), changed in one checked atomic so parallel requests never slip past the limit.
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

interface HitLog {
  /** Times (ms since epoch) of the hits still inside the window, oldest first. */
  hits: number[];
}

/** A client text that is too long for a key shares one record with every other such client. */
function clientKeyText(client: string): string {
  return isKeyText(client) ? client : "oversized";
}

/**
 * Counts one hit of `client` in `bucket` at `now` when it is within the limit; otherwise counts
 * nothing and says how many seconds remain until the oldest hit leaves the window.
 * @example const r = await hitRateLimit(kv, { bucket: "test_email", client: ip, limit: 5, windowMs: 600_000 });
 */
export function hitRateLimit(
  kv: Deno.Kv,
  { bucket, client, limit, windowMs }: RateLimit,
  now = Date.now(),
): Promise<RateLimitResult> {
  const key = keys.rateLimit(bucket, clientKeyText(client));
  return retryAtomic("count the request", async () => {
    const entry = await kv.get<HitLog>(key);
    const hits = (entry.value?.hits ?? []).filter((t) => t > now - windowMs && t <= now);
    if (hits.length >= limit) {
      const retryAfterMs = hits[hits.length - limit] + windowMs - now;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    }
    const log: HitLog = { hits: [...hits, now] };
    const res = await kv.atomic().check(entry).set(key, log, { expireIn: windowMs }).commit();
    return res.ok ? { allowed: true, remaining: limit - log.hits.length } : undefined;
  });
}
