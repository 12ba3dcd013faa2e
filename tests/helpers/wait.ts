/**
 * Waiting for a condition instead of for a time: `waitFor` checks `probe` again and again until it
 * gives a truthy value, which it returns, and fails naming `what` (with the last value seen) once
 * `timeoutMs` has passed. A test that waits this way is as fast as the code and never flaky on a
 * slow machine; a fixed sleep is only right where the time itself is what is tested (a token
 * bucket refilling, a TTL running out) or where nothing must happen during a window.
 */
/** What `waitFor` returns: the probe's value once it is truthy. */
type Truthy<T> = Exclude<T, false | null | undefined | 0 | "">;

export async function waitFor<T>(
  what: string,
  probe: () => T | Promise<T>,
  { timeoutMs = 10_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
