/** Admin accounts: the start-up guarantee of one admin, and password checks with throttling. */
import {
  createAdmin,
  getAdminByUsername,
  hasAdmins,
  updateAdminPassword,
} from "@/lib/auth/records/admins.ts";
import { UnauthorizedError } from "@/lib/domain/errors.ts";
import { hashPassword, randomToken, verifyPassword } from "./passwords.ts";
import { beginLogin, loginAttempt, loginSucceeded } from "./throttle.ts";

/** Whether any admin account exists (start-up warns when none does and none can sign in). */
export { hasAdmins };

export const DEFAULT_ADMIN_USERNAME = "admin";
export const INVALID_CREDENTIALS = "Invalid credentials";

export interface AdminIdentity {
  id: number;
  username: string;
  /** A password login that still has to set up its second factor (ADMIN_REQUIRE_2FA). */
  mustEnrolTotp?: boolean;
}

/**
 * Makes sure the configured admin exists at start: created, or its password
 * updated when it differs. With no admin at all and none configured, creates `admin` with a
 * random password, returned once as `generatedPassword` for the caller to print.
 */
export async function ensureAdmin(
  kv: Deno.Kv,
  username: string | null,
  password: string | null,
): Promise<{ username: string; generatedPassword?: string }> {
  const name = username?.trim() || DEFAULT_ADMIN_USERNAME;
  const existing = await getAdminByUsername(kv, name);
  if (password) {
    if (!existing) await createAdmin(kv, { username: name, ...await hashPassword(password) });
    else if (!await verifyPassword(password, existing)) {
      await updateAdminPassword(kv, existing.id, await hashPassword(password));
    }
    return { username: name };
  }
  if (existing || (!username && await hasAdmins(kv))) return { username: name };
  const generatedPassword = randomToken(12);
  await createAdmin(kv, { username: name, ...await hashPassword(generatedPassword) });
  return { username: name, generatedPassword };
}

/**
 * Gives `username` a new random password, creating the account when it does not exist, and
 * returns it for the caller to print once. The new salt ends every session the account had
 * (a session is bound to the password it was opened with).
 */
export async function resetAdminPassword(
  kv: Deno.Kv,
  username: string,
): Promise<{ username: string; password: string; created: boolean }> {
  const name = username.trim() || DEFAULT_ADMIN_USERNAME;
  const password = randomToken(12);
  const existing = await getAdminByUsername(kv, name);
  if (existing) await updateAdminPassword(kv, existing.id, await hashPassword(password));
  else await createAdmin(kv, { username: name, ...await hashPassword(password) });
  return { username: name, password, created: !existing };
}

let dummyHash: ReturnType<typeof hashPassword> | null = null;

/**
 * Checks a username and password, throttled (lib/auth/throttle.ts): 429 after 5 failures of a
 * (username, address) in 15 minutes, 401 'Invalid credentials' on a mismatch (a failure).
 */
export async function verifyAdminCredentials(
  kv: Deno.Kv,
  username: string,
  password: string,
  ip: string | null,
): Promise<AdminIdentity> {
  const attempt = await beginLogin(kv, loginAttempt(username, ip)); // a failure until proven right
  const admin = await getAdminByUsername(kv, username.trim());
  // An unknown user costs the same hash as a known one, so timing does not reveal usernames.
  const ok = admin
    ? await verifyPassword(password, admin)
    : (await verifyPassword(password, await (dummyHash ??= hashPassword(randomToken()))), false);
  if (!admin || !ok) throw new UnauthorizedError(INVALID_CREDENTIALS);
  await loginSucceeded(kv, attempt);
  return { id: admin.id, username: admin.username };
}
