/** The e-mail an entrant gets when a competition is cancelled and the entry fee refunded. */
import { formatPrice } from "@/lib/domain/format.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { esc } from "./html.ts";
import type { MailMessage } from "./mailer.ts";

export interface CancellationNotice {
  entry: Pick<Entry, "teamId" | "teamName" | "email">;
  competition: Pick<Competition, "id" | "name" | "currency">;
  /** Why it was cancelled, as the admin wrote it. */
  reason: string;
  /** The amount refunded, in major units. */
  amount: number;
  /** Origin of the site, for the link to the contest. */
  origin: string;
}

/** The message telling an entrant the competition was cancelled and the fee refunded. */
export function buildCancellationNotice(input: CancellationNotice): MailMessage {
  const { entry, competition, reason, origin } = input;
  const fee = formatPrice(input.amount, competition.currency);
  const url = `${origin}/leaderboard/${competition.id}`;
  const text = [
    `Hi ${entry.teamName},`,
    "",
    `${competition.name} has been cancelled: ${reason}`,
    "",
    `Your entry ${entry.teamId} has been refunded: ${fee} goes back to the card you paid with.`,
    "Refunds usually reach your account within 5 to 10 business days.",
    "",
    `Contest page: ${url}`,
    "",
    "Sorry for the inconvenience.",
  ].join("\n");
  const html = `<p>Hi ${esc(entry.teamName)},</p>
<p><strong>${esc(competition.name)}</strong> has been cancelled: ${esc(reason)}</p>
<p>Your entry <strong>${esc(entry.teamId)}</strong> has been refunded: ${
    esc(fee)
  } goes back to the card you paid with. Refunds usually reach your account within 5 to 10 business days.</p>
<p><a href="${esc(url)}">Contest page</a></p>
<p>Sorry for the inconvenience.</p>`;
  return {
    to: entry.email,
    subject: `${competition.name} was cancelled: your ${fee} entry fee is refunded`,
    text,
    html,
  };
}

/** What an entrant whose entry an admin refunded on its own is told (as for a cancellation). */
export type EntryRefundNotice = CancellationNotice;

/** The message telling an entrant their one entry was refunded (the contest goes on). */
export function buildEntryRefundNotice(input: EntryRefundNotice): MailMessage {
  const { entry, competition, reason, origin } = input;
  const fee = formatPrice(input.amount, competition.currency);
  const url = `${origin}/leaderboard/${competition.id}`;
  const text = [
    `Hi ${entry.teamName},`,
    "",
    `Your entry ${entry.teamId} in ${competition.name} has been refunded: ${reason}`,
    "",
    `${fee} goes back to the card you paid with; refunds usually reach your account within 5 to 10 business days.`,
    "The entry no longer plays: it has left the leaderboard.",
    "",
    `Contest page: ${url}`,
  ].join("\n");
  const html = `<p>Hi ${esc(entry.teamName)},</p>
<p>Your entry <strong>${esc(entry.teamId)}</strong> in <strong>${
    esc(competition.name)
  }</strong> has been refunded: ${esc(reason)}</p>
<p>${
    esc(fee)
  } goes back to the card you paid with; refunds usually reach your account within 5 to 10 business days. The entry no longer plays: it has left the leaderboard.</p>
<p><a href="${esc(url)}">Contest page</a></p>`;
  return {
    to: entry.email,
    subject: `Your ${fee} entry in ${competition.name} is refunded`,
    text,
    html,
  };
}
