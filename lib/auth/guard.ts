/**
 * The admin guard: a request is an admin's when it carries a live session cookie, or the
 * x-admin-username / x-admin-password headers with valid credentials (a successful check is
 * reused for 60 s while the admin's record is unchanged: a new password or a removed admin takes
 * effect at once on every isolate).
 */
import { UnauthorizedError } from "@/lib/domain/errors.ts";
import { adminVersion } from "@/lib/auth/records/admins.ts";
import { type AdminIdentity, verifyAdminCredentials } from "./admins.ts";
import { getSessionAdmin } from "./sessions.ts";
import { isSecondFactorRequired } from "./totp.ts";

const HEADER_CACHE_MS = 60_000;

interface CachedCheck {
  admin: Promise<AdminIdentity>;
  expires: number;
}

/** Successful header checks of one isolate, by credentials and record version (in Services). */
export type AdminHeaderChecks = Map<string, CachedCheck>;

export interface GuardOptions {
  /** ADMIN_REQUIRE_2FA: every password login needs a second factor, so headers never suffice. */
  require2fa?: boolean;
  /** Where successful header checks are kept: the isolate's `Services.adminChecks`. */
  checks: AdminHeaderChecks;
}

/**
 * The admin behind the request, or null. Throws 429 while header logins are throttled. The
 * headers are refused for an admin whose password logins need a second factor.
 */
export async function getAdminFromRequest(
  req: Request,
  kv: Deno.Kv,
  ip: string | null,
  opts: GuardOptions,
): Promise<AdminIdentity | null> {
  const fromSession = await getSessionAdmin(kv, req);
  if (fromSession) return fromSession;
  const username = req.headers.get("x-admin-username");
  const password = req.headers.get("x-admin-password");
  if (!username || !password) return null;
  try {
    const admin = await checkHeaders(kv, opts.checks, username, password, ip);
    return await isSecondFactorRequired(kv, admin.id, opts.require2fa ?? false) ? null : admin;
  } catch (err) {
    if (err instanceof UnauthorizedError) return null;
    throw err;
  }
}

/** The admin behind the request; UnauthorizedError (401) when there is none. */
export async function requireAdmin(
  req: Request,
  kv: Deno.Kv,
  ip: string | null,
  opts: GuardOptions,
): Promise<AdminIdentity> {
  const admin = await getAdminFromRequest(req, kv, ip, opts);
  if (!admin) throw new UnauthorizedError();
  return admin;
}

async function checkHeaders(
  kv: Deno.Kv,
  cache: AdminHeaderChecks,
  username: string,
  password: string,
  ip: string | null,
): Promise<AdminIdentity> {
  // Keyed by the record's versionstamp too, so no isolate reuses a check the record outlived.
  const version = await adminVersion(kv, username.trim());
  const key = `${await cacheKey(username, password)}@${version}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.admin;
  const admin = verifyAdminCredentials(kv, username, password, ip);
  cache.set(key, { admin, expires: now + HEADER_CACHE_MS });
  try {
    return await admin;
  } catch (err) {
    cache.delete(key);
    throw err;
  }
}

async function cacheKey(username: string, password: string): Promise<string> {
  const data = new TextEncoder().encode(`${username}\u0000${password}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The client address of a request context, when the server knows it. */
export function clientIp(ctx: { remoteAddr?: Deno.Addr }): string | null {
  const addr = ctx.remoteAddr;
  return addr && "hostname" in addr && addr.hostname ? addr.hostname : null;
}
