/** Failed admin logins per throttle key (username or address), expiring in KV. */
import { keys } from "./keys.ts";
import { deleteKeys, listKeys } from "./util.ts";

/** How long a failure is remembered. */
export const LOGIN_FAILURE_TTL_MS = 60 * 60 * 1000;

/** Records one failed login for `key` at `now` (ms since epoch); returns its KV key. */
export async function recordLoginFailure(
  kv: Deno.Kv,
  key: string,
  now = Date.now(),
): Promise<Deno.KvKey> {
  const kvKey = keys.loginFailure(key, now, crypto.randomUUID());
  await kv.set(kvKey, now, { expireIn: LOGIN_FAILURE_TTL_MS });
  return kvKey;
}

/** Forgets one failure recorded by `recordLoginFailure` (an attempt refused before it counted). */
export async function forgetLoginFailure(kv: Deno.Kv, kvKey: Deno.KvKey): Promise<void> {
  await kv.delete(kvKey);
}

/** How many failures `key` had in the `windowMs` milliseconds before `now`. */
export async function countLoginFailures(
  kv: Deno.Kv,
  key: string,
  windowMs: number,
  now = Date.now(),
): Promise<number> {
  const prefix = keys.loginFailures(key);
  let count = 0;
  const iter = kv.list({ prefix, start: [...prefix, now - windowMs] });
  for await (const _ of iter) count++;
  return count;
}

/** Forgets the failures of `key` (after a successful login). */
export async function clearLoginFailures(kv: Deno.Kv, key: string): Promise<void> {
  await deleteKeys(kv, await listKeys(kv, keys.loginFailures(key)));
}
