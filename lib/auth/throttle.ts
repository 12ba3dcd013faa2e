/** Throttling of failed admin logins: 5 failures per username or address in 15 minutes → 429. */
import {
  clearLoginFailures,
  countLoginFailures,
  forgetLoginFailure,
  recordLoginFailure,
} from "../db/login_failures.ts";
import { TooManyRequestsError } from "../domain/errors.ts";

export const MAX_LOGIN_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/** The longest username the throttle tells apart (longer ones share their first 100 characters). */
const THROTTLE_NAME_LENGTH = 100;

/** The throttle keys of an attempt: its username (case-folded) and, when known, its address. */
export function throttleKeys(username: string, ip: string | null): string[] {
  const list = [`user:${username.trim().toLowerCase().slice(0, THROTTLE_NAME_LENGTH)}`];
  if (ip) list.push(`ip:${ip}`);
  return list;
}

function throttled(): TooManyRequestsError {
  return new TooManyRequestsError(
    "Too many failed login attempts. Please wait 15 minutes and try again.",
    LOGIN_WINDOW_MS / 1000,
  );
}

function countFailures(kv: Deno.Kv, keys: string[]): Promise<number[]> {
  return Promise.all(keys.map((k) => countLoginFailures(kv, k, LOGIN_WINDOW_MS)));
}

/** Throws 429 (with Retry-After) when any key reached the failure limit within the window. */
export async function assertNotThrottled(kv: Deno.Kv, keys: string[]): Promise<void> {
  const counts = await countFailures(kv, keys);
  if (counts.some((n) => n >= MAX_LOGIN_FAILURES)) throw throttled();
}

/**
 * Starts an attempt: it counts as a failure against every key *before* the password is checked,
 * so parallel guesses cannot all pass the limit check before any of them is recorded. 429 when
 * the limit is reached (that attempt is then not counted). A successful check must call
 * `clearFailures`; a failed one leaves its failure recorded.
 */
export async function beginAttempt(kv: Deno.Kv, keys: string[]): Promise<void> {
  await assertNotThrottled(kv, keys);
  const recorded = await Promise.all(keys.map((k) => recordLoginFailure(kv, k)));
  const counts = await countFailures(kv, keys);
  if (counts.every((n) => n <= MAX_LOGIN_FAILURES)) return;
  await Promise.all(recorded.map((kvKey) => forgetLoginFailure(kv, kvKey)));
  throw throttled();
}

/** Forgets the failures of every key (after a successful login). */
export async function clearFailures(kv: Deno.Kv, keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => clearLoginFailures(kv, k)));
}
