/**
 * Signatures of the live event feed: HMAC-SHA256 of `"{timestamp}.{body}"` with the provider's
 * shared secret, sent as `x-feed-signature: v1={hex}` beside `x-feed-provider` and
 * `x-feed-timestamp` (Unix seconds). A signature older (or newer) than 5 minutes is refused.
 */

/** How far a request's timestamp may be from the server's clock. */
export const SIGNATURE_WINDOW_SECONDS = 300;

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The `v1=…` signature of `body` sent at `timestamp` (Unix seconds) with `secret`. */
export async function signFeedBody(
  secret: string,
  timestamp: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`));
  return `v1=${hex(mac)}`;
}

/** The headers a provider sends with `body` (what the replay script and the tests use). */
export async function feedHeaders(
  provider: string,
  secret: string,
  body: string,
  now = Date.now(),
): Promise<Record<string, string>> {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "x-feed-provider": provider,
    "x-feed-timestamp": String(timestamp),
    "x-feed-signature": await signFeedBody(secret, timestamp, body),
  };
}

/** Compares two strings in time that depends on their length only. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
