/**
 * Addresses an admin logged in from recently: the login throttle's global brake spares them, so
 * guessing from elsewhere cannot lock the admin out of their usual place (lib/auth/throttle.ts).
 */
import { isKeyText, keys } from "@/lib/store/keys.ts";

/** How long a successful login keeps its address trusted. */
export const TRUST_TTL_MS = 30 * 24 * 60 * 60 * 1000;

function trustKey(user: string, address: string): Deno.KvKey | null {
  return isKeyText(user) && isKeyText(address) ? keys.loginTrust(user, address) : null;
}

/** Remembers that `user` logged in from `address`. */
export async function trustAddress(kv: Deno.Kv, user: string, address: string): Promise<void> {
  const key = trustKey(user, address);
  if (key) await kv.set(key, Date.now(), { expireIn: TRUST_TTL_MS });
}

/** True when `user` logged in from `address` within the last 30 days. */
export async function isTrustedAddress(
  kv: Deno.Kv,
  user: string,
  address: string,
): Promise<boolean> {
  const key = trustKey(user, address);
  return key !== null && (await kv.get(key)).value !== null;
}
