/**
 * The e-mails a person asked for: the reminder 1 hour before the deadline and the result. Each
 * carries its one-click unsubscribe: the RFC 8058 headers (`List-Unsubscribe` with the POST
 * address, `List-Unsubscribe-Post: List-Unsubscribe=One-Click`), and in the body a link to the
 * /unsubscribe page with its button (a person's click is a GET, which must change nothing).
 */
import { getPlayerPerformances } from "@/lib/db/performances.ts";
import { getPlayersByIds } from "@/lib/db/players.ts";
import { getPickClock } from "@/lib/db/pick_clock.ts";
import {
  actingCaptain,
  captainMultiplierOf,
  captainScoring,
  multiplierText,
  multiplyPoints,
} from "@/lib/domain/captain.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { formatPoints, formatWhen, ordinal } from "@/lib/domain/format.ts";
import { roundPoints } from "@/lib/domain/scoring.ts";
import { esc } from "@/lib/email/html.ts";
import type { MailMessage } from "@/lib/email/mailer.ts";

/** The address mail apps' one-click unsubscribe POSTs to (the List-Unsubscribe header). */
export function unsubscribeUrl(origin: string, token: string): string {
  return `${origin}/api/notifications/unsubscribe?t=${encodeURIComponent(token)}`;
}

/**
 * The body's link for the one-click address `oneClick`: the /unsubscribe page with the same
 * token, whose button POSTs. Opening a link (as a person or a mail scanner does) is a GET.
 */
export function unsubscribePageUrl(oneClick: string): string {
  const url = new URL(oneClick);
  return `${url.origin}/unsubscribe${url.search}`;
}

/** The RFC 8058 one-click headers. */
function unsubscribeHeaders(url: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${url}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

interface Parts {
  to: string;
  subject: string;
  lines: string[];
  link: { label: string; url: string };
  unsubscribe: string;
}

function message({ to, subject, lines, link, unsubscribe }: Parts): MailMessage {
  const footer = "You get this because you asked for it for this entry. Stop these e-mails:";
  const page = unsubscribePageUrl(unsubscribe);
  const text = [...lines, "", `${link.label}: ${link.url}`, "", footer, page].join("\n");
  const html = lines.filter(Boolean).map((l) => `<p>${esc(l)}</p>`).join("\n") +
    `\n<p><a href="${esc(link.url)}">${esc(link.label)}</a></p>` +
    `\n<p style="color:#666;font-size:12px">${esc(footer)} <a href="${
      esc(page)
    }">Unsubscribe</a></p>`;
  return { to, subject, text, html, headers: unsubscribeHeaders(unsubscribe) };
}

/** What the reminder and the result say of an entry's captain and vice-captain. */
export interface CaptainNote {
  multiplier: number;
  captain: string;
  vice: string | null;
  /**
   * The result's: the pick whose points counted `multiplier` times (the captain, or the
   * vice-captain when the captain did not play) and those points before and after; null when
   * neither played.
   */
  counted?: { name: string; vice: boolean; points: number; multiplied: number } | null;
}

/**
 * Reads what the e-mails say of `entry`'s captains: their names and, with `result`, the points
 * the multiplier counted (from the two players' performances). Null when the competition has no
 * captains or the entry names none.
 */
export async function captainNote(
  kv: Deno.Kv,
  entry: Pick<Entry, "captainId" | "viceCaptainId">,
  competition: Pick<Competition, "id" | "captainMultiplier" | "status" | "matchId">,
  result = false,
): Promise<CaptainNote | null> {
  const multiplier = captainMultiplierOf(competition);
  const { captainId, viceCaptainId } = entry;
  if (multiplier === null || captainId === undefined) return null;
  const ids = viceCaptainId === undefined ? [captainId] : [captainId, viceCaptainId];
  const [players, performances, clock] = await Promise.all([
    getPlayersByIds(kv, ids),
    result ? getPlayerPerformances(kv, competition.id, ids) : null,
    result ? getPickClock(kv, competition) : null,
  ]);
  const nameOf = (id: number | undefined) => players.find((p) => p.id === id)?.name ?? null;
  const captain = nameOf(captainId);
  if (captain === null) return null;
  const note: CaptainNote = { multiplier, captain, vice: nameOf(viceCaptainId) };
  if (performances && clock) {
    const scoring = captainScoring(competition, performances, clock)!;
    const playedIds = scoring.played;
    const pick = actingCaptain(captainId, viceCaptainId ?? 0, scoring);
    const points = roundPoints(performances.get(pick)?.totalPoints ?? 0);
    const multiplied = multiplyPoints(points, multiplier);
    const vice = pick !== captainId;
    note.counted = playedIds.has(pick)
      ? { name: (vice && note.vice) || captain, vice, points, multiplied }
      : null;
  }
  return note;
}

function pointsWords(points: number): string {
  return `${formatPoints(points)} ${points === 1 ? "point" : "points"}`;
}

/** "Captain: Bukayo Saka (×2), vice-captain: Declan Rice." */
function captainsLine(note: CaptainNote): string {
  const vice = note.vice ? `, vice-captain: ${note.vice}` : "";
  return `Captain: ${note.captain} (${multiplierText(note.multiplier)})${vice}.`;
}

/** The result's line: the names, then whose points counted ×m and what they came to. */
function captainResultLine(note: CaptainNote): string {
  const counted = note.counted;
  const times = multiplierText(note.multiplier);
  if (counted === undefined) return captainsLine(note);
  if (counted === null) {
    return `${captainsLine(note)} Neither played, so no points counted ${times}.`;
  }
  const who = counted.vice
    ? `${note.captain} did not play, so ${counted.name}'s`
    : `${counted.name}'s`;
  return `${captainsLine(note)} ${who} ${pointsWords(counted.points)} counted ${times}: ` +
    `${pointsWords(counted.multiplied)}.`;
}

/** "Your team … closes in 1 hour": the last chance to change it. */
export function buildDeadlineReminder(
  entry: Pick<Entry, "email" | "teamName" | "teamId" | "editToken">,
  competition: Pick<Competition, "id" | "name" | "deadline">,
  origin: string,
  unsubscribe: string,
  captains: CaptainNote | null = null,
): MailMessage {
  const when = formatWhen(competition.deadline ?? "", "UTC", { year: true });
  const link = entry.editToken
    ? { label: "Check or change your team", url: `${origin}/edit/${entry.editToken}` }
    : { label: "See your team", url: `${origin}/confirmation/${encodeURIComponent(entry.teamId)}` };
  return message({
    to: entry.email,
    subject: `1 hour left to change your team in ${competition.name}`,
    lines: [
      `Hi ${entry.teamName},`,
      "",
      `${competition.name} closes in about an hour${when ? ` (${when})` : ""}. ` +
      `Your team ${entry.teamId} can still change until then, for free.`,
      ...(captains
        ? ["", `${captainsLine(captains)} You can change them with the team until then.`]
        : []),
    ],
    link,
    unsubscribe,
  });
}

/** The final result of an entry: its place and points (and what its captain brought). */
export function buildResultEmail(
  entry: Pick<Entry, "email" | "teamName" | "teamId" | "rank" | "points">,
  competition: Pick<Competition, "id" | "name">,
  origin: string,
  unsubscribe: string,
  captains: CaptainNote | null = null,
): MailMessage {
  const place = entry.rank ? `finished ${ordinal(entry.rank)}` : "is in the final standings";
  return message({
    to: entry.email,
    subject: `Final result of ${competition.name}: your team ${place}`,
    lines: [
      `Hi ${entry.teamName},`,
      "",
      `${competition.name} is over. Your team ${entry.teamId} ${place} with ${entry.points} points.`,
      ...(captains ? ["", captainResultLine(captains)] : []),
    ],
    link: { label: "See the final standings", url: `${origin}/leaderboard/${competition.id}` },
    unsubscribe,
  });
}
