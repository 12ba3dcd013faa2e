/** The entry confirmation e-mail: team ID, the five players and the leaderboard link. */
import type { Competition, Entry, Player, Team } from "@/lib/domain/types.ts";
import { esc } from "./html.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

export interface ConfirmationInput {
  entry: Pick<Entry, "teamId" | "teamName" | "email" | "competitionId" | "editToken">;
  competition: Pick<Competition, "id" | "name">;
  players: (Pick<Player, "name" | "position"> & { team: Pick<Team, "name"> | null })[];
  /** Origin of the site, e.g. `https://fantasy.example.com`, used for the links. */
  origin: string;
}

/**
 * Builds the confirmation message (text and HTML) for a new entry; the entry's atomic can write
 * it to the outbox with `queueMail` (lib/db/outbox.ts) so it goes exactly once.
 */
export function buildEntryConfirmation(input: ConfirmationInput): MailMessage {
  const { entry, competition, players, origin } = input;
  const leaderboardUrl = `${origin}/leaderboard/${competition.id}`;
  const confirmationUrl = `${origin}/confirmation/${encodeURIComponent(entry.teamId)}`;
  const editUrl = entry.editToken ? `${origin}/edit/${entry.editToken}` : null;
  const editLine = editUrl ? [`Change your team until the deadline: ${editUrl}`] : [];
  const lines = players.map((p) => `${p.name} (${p.position}${p.team ? `, ${p.team.name}` : ""})`);
  const text = [
    `Hi ${entry.teamName},`,
    "",
    `You're all set! Your entry into ${competition.name} is confirmed.`,
    "",
    `Team ID: ${entry.teamId}`,
    "",
    "Your players:",
    ...lines.map((line) => `- ${line}`),
    "",
    `Follow the leaderboard: ${leaderboardUrl}`,
    `Your entry: ${confirmationUrl}`,
    ...editLine,
    "",
    "Good luck!",
  ].join("\n");
  const html = `<p>Hi ${esc(entry.teamName)},</p>
<p>You're all set! Your entry into <strong>${esc(competition.name)}</strong> is confirmed.</p>
<p>Team ID: <strong>${esc(entry.teamId)}</strong></p>
<p>Your players:</p>
<ul>${lines.map((line) => `<li>${esc(line)}</li>`).join("")}</ul>
<p><a href="${esc(leaderboardUrl)}">View Leaderboard</a></p>
<p><a href="${esc(confirmationUrl)}">Your entry</a></p>
${
    editUrl
      ? `<p><a href="${
        esc(editUrl)
      }">Change your team</a> (until the deadline; keep this link private)</p>\n`
      : ""
  }<p>Good luck!</p>`;
  return {
    to: entry.email,
    subject: `Your entry for ${competition.name} is confirmed (Team ID ${entry.teamId})`,
    text,
    html,
  };
}

/** Sends the confirmation e-mail of a new entry through the configured mailer. */
export async function sendEntryConfirmation(
  mailer: Mailer,
  input: ConfirmationInput,
): Promise<void> {
  await mailer.send(buildEntryConfirmation(input));
}
