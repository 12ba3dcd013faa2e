/** Admin sessions: a random token in an HttpOnly, SameSite=Strict cookie, kept in KV. */
import { getAdmin } from "@/lib/auth/records/admins.ts";
import {
  createSession,
  deleteSession,
  getSession,
  sessionsValidFrom,
} from "@/lib/auth/records/sessions.ts";
import type { AdminIdentity } from "./admins.ts";
import { randomToken } from "./passwords.ts";

export const SESSION_COOKIE = "admin_session";
/** 12 hours. */
export const SESSION_MAX_AGE_S = 43_200;

/** Starts a session for `admin`; returns the Set-Cookie value for the answer. */
export async function startSession(
  kv: Deno.Kv,
  admin: AdminIdentity,
  secure: boolean,
): Promise<string> {
  const token = randomToken(32);
  const expiresAt = new Date(Date.now() + SESSION_MAX_AGE_S * 1000).toISOString();
  const passwordStamp = (await getAdmin(kv, admin.id))?.salt;
  const session = {
    token,
    adminId: admin.id,
    username: admin.username,
    expiresAt,
    passwordStamp,
    startedAt: Date.now(),
  };
  await createSession(kv, admin.mustEnrolTotp ? { ...session, mustEnrolTotp: true } : session);
  return cookie(token, SESSION_MAX_AGE_S, secure);
}

/** Ends the session of the request's cookie, if any; returns the Set-Cookie that clears it. */
export async function endSession(kv: Deno.Kv, req: Request): Promise<string> {
  const token = readSessionToken(req);
  if (token) await deleteSession(kv, token);
  return clearSessionCookie(req);
}

/** The Set-Cookie that clears the session cookie. */
export function clearSessionCookie(req: Request): string {
  return cookie("", 0, isHttps(req));
}

/**
 * The admin of the request's session cookie, or null: no cookie, unknown or expired, or a
 * session whose admin is gone, changed password or turned on a second factor since (that session
 * is then deleted).
 */
export async function getSessionAdmin(kv: Deno.Kv, req: Request): Promise<AdminIdentity | null> {
  const token = readSessionToken(req);
  if (!token) return null;
  const session = await getSession(kv, token);
  if (!session) return null;
  const [stored, validFrom] = await Promise.all([
    getAdmin(kv, session.adminId),
    sessionsValidFrom(kv, session.adminId),
  ]);
  if (
    !stored || stored.salt !== session.passwordStamp || (session.startedAt ?? 0) < validFrom
  ) {
    await deleteSession(kv, token);
    return null;
  }
  const admin = { id: stored.id, username: stored.username };
  return session.mustEnrolTotp ? { ...admin, mustEnrolTotp: true } : admin;
}

/** The session token of the request's Cookie header, or null. */
export function readSessionToken(req: Request): string | null {
  return readCookie(req, SESSION_COOKIE);
}

/** The value of the cookie `cookieName` in the request's Cookie header, or null. */
export function readCookie(req: Request, cookieName: string): string | null {
  const header = req.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === cookieName) return rest.join("=") || null;
  }
  return null;
}

/** True when the request reached us over https (directly or through a proxy saying so). */
export function isHttps(req: Request): boolean {
  return req.url.startsWith("https:") ||
    req.headers.get("x-forwarded-proto") === "https";
}

function cookie(value: string, maxAge: number, secure: boolean): string {
  const parts = [
    `${SESSION_COOKIE}=${value}`,
    "HttpOnly",
    "SameSite=Strict",
    "Path=/",
    `Max-Age=${maxAge}`,
  ];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}
