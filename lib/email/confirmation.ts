/**
 * The entry confirmation e-mail: team ID, the amount paid, the five players, the deadline (date,
 * clock and zone: UTC, since the entrant's zone is not known here) and the links.
 */
import type { Competition, Entry, Player, Team } from "@/lib/domain/types.ts";
import { amountPaidText, formatWhen } from "@/lib/domain/format.ts";
import { captainMultiplierOf, multiplierText, roleOf } from "@/lib/domain/captain.ts";
import { esc } from "./html.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

export interface ConfirmationInput {
  entry:
    & Pick<Entry, "teamId" | "teamName" | "email" | "competitionId" | "editToken">
    & Partial<Pick<Entry, "amountPaid" | "currency" | "captainId" | "viceCaptainId">>;
  competition:
    & Pick<Competition, "id" | "name" | "deadline" | "entryFee" | "currency">
    & Partial<Pick<Competition, "captainMultiplier">>;
  players: (Pick<Player, "name" | "position"> & Partial<Pick<Player, "id">> & {
    team: Pick<Team, "name"> | null;
  })[];
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
  const paid = amountPaidText(entry, competition);
  const deadline = formatWhen(competition.deadline, "UTC", { year: true });
  const until = deadline ? `until the deadline, ${deadline}` : "until the deadline";
  const editLine = editUrl ? [`Change your team for free ${until}: ${editUrl}`] : [];
  const multiplier = captainMultiplierOf(competition);
  const role = (id: number | undefined) => {
    const letter = multiplier && id !== undefined ? roleOf(entry, id) : null;
    if (letter === "C") return `, captain ${multiplierText(multiplier!)}`;
    return letter === "V" ? ", vice-captain" : "";
  };
  const lines = players.map((p) =>
    `${p.name} (${p.position}${p.team ? `, ${p.team.name}` : ""})${role(p.id)}`
  );
  const text = [
    `Hi ${entry.teamName},`,
    "",
    `You're all set! Your entry into ${competition.name} is confirmed.`,
    "",
    `Team ID: ${entry.teamId}`,
    `Amount paid: ${paid}`,
    ...(deadline ? [`Entries close: ${deadline}`] : []),
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
<p>Amount paid: <strong>${esc(paid)}</strong></p>
${deadline ? `<p>Entries close: <strong>${esc(deadline)}</strong></p>\n` : ""}
<p>Your players:</p>
<ul>${lines.map((line) => `<li>${esc(line)}</li>`).join("")}</ul>
<p><a href="${esc(leaderboardUrl)}">View Leaderboard</a></p>
<p><a href="${esc(confirmationUrl)}">Your entry</a></p>
${
    editUrl
      ? `<p><a href="${esc(editUrl)}">Change your team</a> for free ${
        esc(until)
      } (keep this link private)</p>\n`
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
