/**
 * When a page's live socket tries again after it closed. Two cases:
 * - the server said it is restarting (close 1012, "Service restart", sent by every isolate on
 *   SIGINT, e.g. a Deno Deploy eviction): the first try comes at a random moment within
 *   `RESTART_SPREAD_MS`, so the thousands of pages of one isolate reach the others spread out
 *   instead of all in the same millisecond;
 * - anything else (the link died, the server refused): exponential backoff from
 *   `FIRST_RETRY_MS` doubling to `MAX_RETRY_MS`, with "equal jitter" (half the step fixed, half
 *   random), so pages that failed together do not retry together and never retry at once.
 * A reconnected page loses nothing: its join is answered with the competition's current events
 * (the newest 50, the whole list the page shows) and the page re-reads the standings.
 */

/** Close code of a server going down for a restart (RFC 6455 §7.4.1, IANA-registered). */
export const SERVICE_RESTART = 1012;
/** First backoff step after an unannounced close (ms). */
export const FIRST_RETRY_MS = 1000;
/** Longest backoff step (ms). */
export const MAX_RETRY_MS = 30_000;
/** Window over which the pages of a restarting server spread their first reconnect (ms). */
export const RESTART_SPREAD_MS = 4000;

/**
 * Milliseconds to wait before reconnect number `attempt` (0 for the first after a socket that
 * had joined closed, 1 after that one failed too, …), given the close code that ended the last
 * socket; `random` in [0, 1) (Math.random by default) makes the jitter.
 */
export function reconnectDelay(
  attempt: number,
  closeCode: number,
  random: number = Math.random(),
): number {
  if (attempt === 0 && closeCode === SERVICE_RESTART) return Math.floor(random * RESTART_SPREAD_MS);
  const step = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt, 16));
  return Math.floor(step / 2 + random * step / 2);
}
