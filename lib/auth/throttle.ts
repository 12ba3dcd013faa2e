/** Throttling of failed admin logins: 5 failures per username or address in 15 minutes → 429. */
import {
  clearLoginFailures,
  countLoginFailures,
  recordLoginFailure,
} from "../db/login_failures.ts";
import { TooManyRequestsError } from "../http/errors.ts";

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

/** Throws 429 (with Retry-After) when any key reached the failure limit within the window. */
export async function assertNotThrottled(kv: Deno.Kv, keys: string[]): Promise<void> {
  const counts = await Promise.all(keys.map((k) => countLoginFailures(kv, k, LOGIN_WINDOW_MS)));
  if (counts.some((n) => n >= MAX_LOGIN_FAILURES)) {
    throw new TooManyRequestsError(
      "Too many failed login attempts. Please wait 15 minutes and try again.",
      LOGIN_WINDOW_MS / 1000,
    );
  }
}

/** Counts one failed attempt against every key. */
export async function recordFailure(kv: Deno.Kv, keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => recordLoginFailure(kv, k)));
}

/** Forgets the failures of every key (after a successful login). */
export async function clearFailures(kv: Deno.Kv, keys: string[]): Promise<void> {
  await Promise.all(keys.map((k) => clearLoginFailures(kv, k)));
}
