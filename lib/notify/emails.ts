/**
 * The e-mails a person asked for: the reminder 1 hour before the deadline and the result. Each
 * carries its one-click unsubscribe: the RFC 8058 headers (`List-Unsubscribe` with the POST
 * address, `List-Unsubscribe-Post: List-Unsubscribe=One-Click`) and the same link in the body.
 */
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { formatWhen, ordinal } from "@/lib/domain/format.ts";
import { esc } from "@/lib/email/html.ts";
import type { MailMessage } from "@/lib/email/mailer.ts";

/** The address the unsubscribe link and POST go to. */
export function unsubscribeUrl(origin: string, token: string): string {
  return `${origin}/api/notifications/unsubscribe?t=${encodeURIComponent(token)}`;
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
  const footer = "You get this because you asked for it for this entry. " +
    "Stop these e-mails with one click:";
  const text = [...lines, "", `${link.label}: ${link.url}`, "", footer, unsubscribe].join("\n");
  const html = lines.filter(Boolean).map((l) => `<p>${esc(l)}</p>`).join("\n") +
    `\n<p><a href="${esc(link.url)}">${esc(link.label)}</a></p>` +
    `\n<p style="color:#666;font-size:12px">${esc(footer)} <a href="${
      esc(unsubscribe)
    }">Unsubscribe</a></p>`;
  return { to, subject, text, html, headers: unsubscribeHeaders(unsubscribe) };
}

/** "Your team … closes in 1 hour": the last chance to change it. */
export function buildDeadlineReminder(
  entry: Pick<Entry, "email" | "teamName" | "teamId" | "editToken">,
  competition: Pick<Competition, "id" | "name" | "deadline">,
  origin: string,
  unsubscribe: string,
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
    ],
    link,
    unsubscribe,
  });
}

/** The final result of an entry: its place and points. */
export function buildResultEmail(
  entry: Pick<Entry, "email" | "teamName" | "teamId" | "rank" | "points">,
  competition: Pick<Competition, "id" | "name">,
  origin: string,
  unsubscribe: string,
): MailMessage {
  const place = entry.rank ? `finished ${ordinal(entry.rank)}` : "is in the final standings";
  return message({
    to: entry.email,
    subject: `Final result of ${competition.name}: your team ${place}`,
    lines: [
      `Hi ${entry.teamName},`,
      "",
      `${competition.name} is over. Your team ${entry.teamId} ${place} with ${entry.points} points.`,
    ],
    link: { label: "See the final standings", url: `${origin}/leaderboard/${competition.id}` },
    unsubscribe,
  });
}
