/**
 * The paying browser's proof that a team is its own, for the team's confirmation page: picks are
 * hidden from everyone until they lock, but the person who just paid sees the whole team there.
 * The cookie holds the entry's edit secret (the one the payer's browser already keeps), scoped to
 * that team's confirmation page, HttpOnly and SameSite=Strict.
 */
import type { Entry } from "@/lib/domain/types.ts";

/** How long the confirmation page recognises the payer (a season of matchdays). */
const MAX_AGE_S = 60 * 86_400;

const nameOf = (teamId: string) => `fft_owner_${teamId.replace(/[^A-Za-z0-9-]/g, "")}`;

/**
 * The Set-Cookie that lets this browser see its whole team on `/confirmation/{teamId}`; null for
 * an entry without an edit secret.
 */
export function ownerCookie(
  entry: Pick<Entry, "teamId" | "editToken">,
  https: boolean,
): string | null {
  if (!entry.editToken) return null;
  const secure = https ? "; Secure" : "";
  return `${nameOf(entry.teamId)}=${entry.editToken}; Path=/confirmation/${
    encodeURIComponent(entry.teamId)
  }; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict${secure}`;
}

/** Whether the request carries the owner cookie of this entry (its edit secret, compared whole). */
export function isOwnerRequest(req: Request, entry: Pick<Entry, "teamId" | "editToken">): boolean {
  if (!entry.editToken) return false;
  const name = nameOf(entry.teamId);
  const cookies = req.headers.get("cookie") ?? "";
  return cookies.split(/;\s*/).some((c) => c === `${name}=${entry.editToken}`);
}
