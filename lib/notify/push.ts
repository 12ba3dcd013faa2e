/**
 * Browser push through the Web Push protocol with the `web-push` library: it encrypts each
 * payload for its browser (RFC 8291, aes128gcm) and builds the request; the VAPID header (RFC
 * 8292) is signed once per push service and hour rather than per message. A 404 or 410 answer
 * means the browser dropped the subscription: the caller removes it. The endpoint is a URL the
 * visitor chose, so it is checked right before each send (lib/net/public_url.ts): a refused one
 * is dropped unsent, and a redirect is never followed.
 */
import webpush from "web-push";
import type { VapidConfig } from "@/lib/config.ts";
import type { PushTarget } from "@/lib/db/notifications.ts";
import {
  checkOutboundUrl,
  type OutboundPolicy,
  resolveHost,
  type Resolver,
} from "@/lib/net/public_url.ts";

/** What a notification shows (the service worker `static/sw.js` reads it). */
export interface PushMessage {
  title: string;
  body: string;
  /** The page the notification opens. */
  url: string;
  /** Notifications of one tag replace each other. */
  tag?: string;
  /** Seconds the push service keeps it for an offline browser (TTL_SECONDS); not shown. */
  ttl?: number;
}

/**
 * A push not delivered: the push service's status (with its `Retry-After`, if any) or why it
 * never answered (`network`: no answer in time or no connection, worth another try).
 */
export interface PushFailure {
  failed: number | string;
  retryAfter?: string;
  network?: true;
}

/** How a push went: delivered, gone (remove the subscription) or failed. */
export type PushResult = "sent" | "gone" | PushFailure;

/** Push services hold a message this long for an offline browser. */
export const TTL_SECONDS = 3600;
/** A signed VAPID header is reused this long (its token is valid 12 hours). */
const VAPID_REUSE_MS = 3_600_000;
const VAPID_VALID_S = 12 * 3600;
const SEND_TIMEOUT_MS = 10_000;

/** Signed VAPID headers by key and push service (one map per isolate, see state.ts). */
export type VapidHeaders = Map<string, { value: string; until: number }>;

/** Push-service hosts resolved, each kept briefly (one map per isolate or push worker). */
export type ResolvedHosts = Map<string, { until: number; addresses: Promise<string[]> }>;
/**
 * A host's addresses are reused this long: a goal sends thousands of pushes to one service, and
 * a resolver asked twice per push would be flooded; only vendors' names get this far by default.
 */
const RESOLVED_FOR_MS = 10_000;
const RESOLVED_HOSTS_KEPT = 1_000;

/** Where pushes may go (PUSH_ALLOW_LOCAL admits a push service on this machine). */
export function pushPolicy(config?: { pushAllowLocal?: boolean }): OutboundPolicy {
  return { allowLocal: config?.pushAllowLocal === true };
}

/** `resolveHost` with each answer kept RESOLVED_FOR_MS in `resolved`. */
function cachedResolver(resolved: ResolvedHosts): Resolver {
  return (host) => {
    const now = Date.now();
    const hit = resolved.get(host);
    if (hit && hit.until > now) return hit.addresses;
    if (resolved.size >= RESOLVED_HOSTS_KEPT) resolved.clear(); // WNS has many host names
    const kept = { until: now + RESOLVED_FOR_MS, addresses: resolveHost(host) };
    resolved.set(host, kept);
    kept.addresses.catch(() => resolved.get(host) === kept && resolved.delete(host));
    return kept.addresses;
  };
}

/** What a send may connect to, and the hosts it resolved (kept per isolate or worker). */
export interface Outbound {
  policy: OutboundPolicy;
  resolved: ResolvedHosts;
}

/** The Authorization header for one push service (its origin), signed at most once an hour. */
function authorization(
  endpoint: string,
  vapid: VapidConfig,
  vapidHeaders: VapidHeaders,
  now = Date.now(),
): string {
  const audience = new URL(endpoint).origin;
  const cacheKey = `${vapid.publicKey} ${audience}`;
  const cached = vapidHeaders.get(cacheKey);
  if (cached && cached.until > now) return cached.value;
  const { Authorization } = webpush.getVapidHeaders(
    audience,
    vapid.subject,
    vapid.publicKey,
    vapid.privateKey,
    "aes128gcm",
    Math.floor(now / 1000) + VAPID_VALID_S,
  );
  vapidHeaders.set(cacheKey, { value: Authorization, until: now + VAPID_REUSE_MS });
  return Authorization;
}

/**
 * Sends one notification to one browser (the signed header kept in `vapidHeaders`), if its
 * endpoint passes `outbound.policy` now: a refused endpoint is "gone" without a connection, so
 * its removal tells nothing of how the target would have answered.
 */
export async function sendPush(
  target: PushTarget,
  message: PushMessage,
  vapid: VapidConfig,
  vapidHeaders: VapidHeaders,
  outbound: Outbound,
): Promise<PushResult> {
  const verdict = await checkOutboundUrl(
    target.endpoint,
    outbound.policy,
    cachedResolver(outbound.resolved),
  );
  if ("refused" in verdict) {
    if (verdict.transient) return { failed: `push endpoint ${verdict.refused}`, network: true };
    console.warn(`Push endpoint refused, subscription dropped: it ${verdict.refused}`);
    return "gone";
  }
  let details: webpush.RequestDetails;
  const { ttl = TTL_SECONDS, ...shown } = message;
  try {
    const options = {
      TTL: ttl,
      // The VAPID header is given (signed once per service), not signed here per message.
      vapidDetails: null,
      contentEncoding: "aes128gcm" as const,
      headers: { Authorization: authorization(target.endpoint, vapid, vapidHeaders) },
    } as unknown as webpush.RequestOptions;
    details = webpush.generateRequestDetails(target, JSON.stringify(shown), options);
  } catch (err) {
    // Keys a browser could not have made: the subscription is unusable.
    return { failed: err instanceof Error ? err.message : String(err) };
  }
  try {
    const res = await fetch(details.endpoint, {
      method: "POST",
      headers: Object.fromEntries(
        Object.entries(details.headers).map(([k, v]) => [k, String(v)]),
      ),
      body: new Uint8Array(details.body as Uint8Array),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      // A push service never redirects; following one would reach an address never checked.
      redirect: "manual",
    });
    await res.body?.cancel();
    // Refused for good, the subscription kept: a redirect's target must not decide its fate.
    if (res.status >= 300 && res.status < 400) return { failed: res.status };
    if (res.status === 404 || res.status === 410) return "gone";
    if (res.ok) return "sent";
    const retryAfter = res.headers.get("retry-after");
    return retryAfter ? { failed: res.status, retryAfter } : { failed: res.status };
  } catch (err) {
    return { failed: err instanceof Error ? err.message : String(err), network: true };
  }
}

/** Runs `work` over `items` with at most `concurrency` at a time. */
export async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}
