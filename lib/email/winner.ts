/** The e-mail a winner gets: place, prize and their private link to claim it. */
import { formatPrice } from "@/lib/domain/format.ts";
import { esc } from "./html.ts";
import type { MailMessage } from "./mailer.ts";

export interface WinnerNotice {
  to: string;
  teamName: string;
  teamId: string;
  competitionName: string;
  /** "1st", "2nd", … */
  place: string;
  /** Cash: minor units and currency; non-cash: the prize's description. */
  amount: number;
  currency: string;
  description: string | null;
  /** The private claim link. */
  claimUrl: string;
}

/** The prize as words: "$50.00" or the non-cash prize's description. */
export function prizeWords(n: Pick<WinnerNotice, "amount" | "currency" | "description">) {
  return n.description ?? formatPrice(n.amount / 100, n.currency);
}

/** The message telling a winner their place and prize, with the link to claim it. */
export function buildWinnerNotice(n: WinnerNotice): MailMessage {
  const prize = prizeWords(n);
  const text = [
    `Hi ${n.teamName},`,
    "",
    `Your team ${n.teamId} finished ${n.place} in ${n.competitionName} and won ${prize}.`,
    "",
    "Claim your prize here (this link is yours alone; do not share it):",
    n.claimUrl,
    "",
    "Congratulations!",
  ].join("\n");
  const html = `<p>Hi ${esc(n.teamName)},</p>
<p>Your team <strong>${esc(n.teamId)}</strong> finished <strong>${esc(n.place)}</strong> in ${
    esc(n.competitionName)
  } and won <strong>${esc(prize)}</strong>.</p>
<p><a href="${
    esc(n.claimUrl)
  }">Claim your prize</a> (this link is yours alone; do not share it).</p>
<p>Congratulations!</p>`;
  return { to: n.to, subject: `You won ${prize} in ${n.competitionName}`, text, html };
}

/** The message telling a winner their prize was paid (or sent), with the payment's reference. */
export function buildPayoutSentNotice(
  n: Omit<WinnerNotice, "claimUrl"> & { reference: string },
): MailMessage {
  const prize = prizeWords(n);
  const cash = n.description === null;
  const what = cash ? `${prize} has been paid` : `${prize} is on its way`;
  const text = [
    `Hi ${n.teamName},`,
    "",
    `Your prize for finishing ${n.place} in ${n.competitionName} (team ${n.teamId}): ${what}.`,
    `Reference: ${n.reference}`,
    "",
    "Congratulations again!",
  ].join("\n");
  const html = `<p>Hi ${esc(n.teamName)},</p>
<p>Your prize for finishing <strong>${esc(n.place)}</strong> in ${esc(n.competitionName)} (team ${
    esc(n.teamId)
  }): <strong>${esc(what)}</strong>.</p>
<p>Reference: ${esc(n.reference)}</p>
<p>Congratulations again!</p>`;
  return { to: n.to, subject: `Your prize from ${n.competitionName}: ${what}`, text, html };
}

/** The message confirming the payout details a winner gave (masked), and how to correct them. */
export function buildClaimConfirmation(
  n: Omit<WinnerNotice, "claimUrl"> & { details: string; corrected: boolean },
): MailMessage {
  const prize = prizeWords(n);
  const what = n.corrected ? "Your corrected details are saved" : "We have your claim";
  const text = [
    `Hi ${n.teamName},`,
    "",
    `${what} for ${prize} (${n.place} in ${n.competitionName}, team ${n.teamId}).`,
    `We will pay to: ${n.details}`,
    "",
    "You can correct these details with your claim link until we record the payment.",
    "If you did not send them, reply to this e-mail at once.",
  ].join("\n");
  const html = `<p>Hi ${esc(n.teamName)},</p>
<p>${esc(what)} for <strong>${esc(prize)}</strong> (${esc(n.place)} in ${
    esc(n.competitionName)
  }, team ${esc(n.teamId)}).</p>
<p>We will pay to: ${esc(n.details)}</p>
<p>You can correct these details with your claim link until we record the payment. If you did not send them, reply to this e-mail at once.</p>`;
  return { to: n.to, subject: `${what}: ${prize} from ${n.competitionName}`, text, html };
}

/** The reminder to a winner who has not claimed yet, `days` after they were told. */
export function buildClaimReminder(n: WinnerNotice & { days: number }): MailMessage {
  const message = buildWinnerNotice(n);
  const prize = prizeWords(n);
  const lead = `A reminder: your prize is still waiting, ${n.days} days after we told you.`;
  return {
    to: n.to,
    subject: `Reminder: claim your ${prize} from ${n.competitionName}`,
    text: message.text.replace("\n\n", `\n\n${lead}\n\n`),
    html: message.html?.replace("</p>", `</p>\n<p>${esc(lead)}</p>`),
  };
}
