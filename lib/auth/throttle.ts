/**
 * Throttling of admin logins, on the app's one rate limiter (lib/db/rate_limits.ts):
 * - 5 failures per (username, address) in 15 minutes, then 429: the guessing budget of one place;
 * - 20 failures per address in 15 minutes, whatever the usernames (no spraying from one place);
 * - a slower global brake per username: 100 failures in an hour from all addresses together.
 *   An address the user logged in from in the last 30 days is exempt from it, so an attacker
 *   elsewhere (or a botnet) can slow everyone else's guessing but never lock the real admin out.
 * An attempt counts as a failure *before* the password is checked, so parallel guesses cannot
 * all pass the check before any is recorded; a good password takes its hit back.
 */
import { clearRateLimit, hitRateLimits, type RateLimit, undoHits } from "@/lib/db/rate_limits.ts";
import { isTrustedAddress, trustAddress } from "@/lib/auth/records/login_trust.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";

export const MAX_LOGIN_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failures one address may make over every username in the window. */
export const MAX_ADDRESS_FAILURES = 20;
/** Failures per username over all untrusted addresses per `GLOBAL_WINDOW_MS`. */
export const MAX_GLOBAL_FAILURES = 100;
export const GLOBAL_WINDOW_MS = 60 * 60 * 1000;

/** The longest username the throttle tells apart (longer ones share their first 100 characters). */
const THROTTLE_NAME_LENGTH = 100;
/** Stands for the address of a request whose address the server does not know. */
const UNKNOWN_ADDRESS = "unknown";

/** One login attempt: whom it is for and where it comes from. */
export interface LoginAttempt {
  /** The username, trimmed and case-folded. */
  user: string;
  address: string;
}

/** A started attempt: the limits it was counted against and when. */
export interface StartedAttempt extends LoginAttempt {
  limits: RateLimit[];
  at: number;
}

export function loginAttempt(username: string, ip: string | null): LoginAttempt {
  return {
    user: username.trim().toLowerCase().slice(0, THROTTLE_NAME_LENGTH),
    address: ip ?? UNKNOWN_ADDRESS,
  };
}

function pairLimit({ user, address }: LoginAttempt): RateLimit {
  return {
    bucket: "login_pair",
    client: `${address} ${user}`,
    limit: MAX_LOGIN_FAILURES,
    windowMs: LOGIN_WINDOW_MS,
  };
}

function limitsOf(attempt: LoginAttempt, trusted: boolean): RateLimit[] {
  const limits = [
    pairLimit(attempt),
    {
      bucket: "login_address",
      client: attempt.address,
      limit: MAX_ADDRESS_FAILURES,
      windowMs: LOGIN_WINDOW_MS,
    },
  ];
  if (!trusted) {
    limits.push({
      bucket: "login_user",
      client: attempt.user,
      limit: MAX_GLOBAL_FAILURES,
      windowMs: GLOBAL_WINDOW_MS,
    });
  }
  return limits;
}

function throttled(retryAfterSeconds: number, global: boolean): TooManyRequestsError {
  return global
    ? new TooManyRequestsError(
      "Too many failed login attempts for this account. Please try again later.",
      retryAfterSeconds,
    )
    : new TooManyRequestsError(
      "Too many failed login attempts. Please wait 15 minutes and try again.",
      LOGIN_WINDOW_MS / 1000,
    );
}

/**
 * Starts an attempt: counts it as a failure against its limits, or throws 429 (with Retry-After)
 * when one of them is full (the attempt is then not counted). A good password must call
 * `loginSucceeded`; a bad one leaves the failure counted.
 */
export async function beginLogin(kv: Deno.Kv, attempt: LoginAttempt): Promise<StartedAttempt> {
  const trusted = await isTrustedAddress(kv, attempt.user, attempt.address);
  const limits = limitsOf(attempt, trusted);
  const result = await hitRateLimits(kv, limits);
  if (!result.allowed) throw throttled(result.retryAfterSeconds, result.bucket === "login_user");
  return { ...attempt, limits, at: result.at };
}

/**
 * After a good password: the attempt's hits are taken back, the earlier failures of this
 * (username, address) forgotten and the address trusted for the username's global brake.
 */
export async function loginSucceeded(kv: Deno.Kv, started: StartedAttempt): Promise<void> {
  await undoHits(kv, started.limits, started.at);
  await clearRateLimit(kv, pairLimit(started));
  await trustAddress(kv, started.user, started.address);
}

function keyLimit(key: string): RateLimit {
  return {
    bucket: "auth_failures",
    client: key,
    limit: MAX_LOGIN_FAILURES,
    windowMs: LOGIN_WINDOW_MS,
  };
}

/**
 * The same throttle on other keys (e.g. `totp:<adminId>` for second-factor codes): an attempt
 * counts as a failure of every key first; 429 once a key has 5 in 15 minutes. A success calls
 * `clearFailures` with the same keys.
 */
export async function beginAttempt(kv: Deno.Kv, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const result = await hitRateLimits(kv, keys.map(keyLimit));
  if (!result.allowed) throw throttled(result.retryAfterSeconds, false);
}

/** Forgets the failures of every key (after a successful attempt). */
export async function clearFailures(kv: Deno.Kv, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => clearRateLimit(kv, keyLimit(key))));
}
