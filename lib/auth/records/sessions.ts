/** Admin login sessions keyed by their random token, expiring in KV. */
import { isKeyText, keys } from "@/lib/store/keys.ts";

export interface Session {
  token: string;
  adminId: number;
  username: string;
  /** The admin may only set up a second factor before using the portal (ADMIN_REQUIRE_2FA). */
  mustEnrolTotp?: boolean;
  /** ISO date-time. */
  expiresAt: string;
  /** The admin's password salt when the session started: a new password ends the session. */
  passwordStamp?: string;
  /** When it started (ms); absent on sessions started before this was kept. */
  startedAt?: number;
}

/** Stores a session that KV drops after `expiresAt`. */
export async function createSession(kv: Deno.Kv, session: Session): Promise<Session> {
  const expireIn = Math.max(1, new Date(session.expiresAt).getTime() - Date.now());
  await kv.set(keys.session(session.token), session, { expireIn });
  return session;
}

/** The live session of a token, or null (unknown or expired: KV expiry is lazy, so checked here). */
export async function getSession(
  kv: Deno.Kv,
  token: string,
  now = new Date(),
): Promise<Session | null> {
  if (!isKeyText(token)) return null;
  const session = (await kv.get<Session>(keys.session(token))).value;
  if (!session || new Date(session.expiresAt).getTime() <= now.getTime()) return null;
  return session;
}

/** Ends a session (logout). */
export async function deleteSession(kv: Deno.Kv, token: string): Promise<void> {
  if (!isKeyText(token)) return;
  await kv.delete(keys.session(token));
}

/** Ends every session of an admin started before `now` (ms): later ones are unaffected. */
export async function endSessionsBefore(kv: Deno.Kv, adminId: number, now = Date.now()) {
  await kv.set(keys.sessionsValidFrom(adminId), now);
}

/** The moment (ms) before which an admin's sessions are over, or 0. */
export async function sessionsValidFrom(kv: Deno.Kv, adminId: number): Promise<number> {
  return (await kv.get<number>(keys.sessionsValidFrom(adminId))).value ?? 0;
}
