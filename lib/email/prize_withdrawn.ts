/** The e-mail a winner gets when the competition is reopened and the award withdrawn. */
import { esc } from "./html.ts";
import type { MailMessage } from "./mailer.ts";
import { prizeWords, type WinnerNotice } from "./winner.ts";

/** A winner's notice (without the claim link, which no longer works) and why it is withdrawn. */
export interface PrizeWithdrawnNotice extends Omit<WinnerNotice, "claimUrl"> {
  /** Why the competition was reopened, as the admin wrote it. */
  reason: string;
}

/**
 * The message telling a winner their award is withdrawn because the competition was reopened:
 * the claim link they got no longer works, and the final result will be sent again.
 */
export function buildPrizeWithdrawnNotice(n: PrizeWithdrawnNotice): MailMessage {
  const prize = prizeWords(n);
  const text = [
    `Hi ${n.teamName},`,
    "",
    `${n.competitionName} has been reopened: ${n.reason}`,
    "",
    `The award of ${prize} (${n.place} place) to your team ${n.teamId} is withdrawn until the ` +
    "competition is completed again, and the claim link we sent no longer works.",
    "If your team wins a prize in the final result, you will get a new e-mail with a new link.",
    "",
    "Sorry for the confusion.",
  ].join("\n");
  const html = `<p>Hi ${esc(n.teamName)},</p>
<p><strong>${esc(n.competitionName)}</strong> has been reopened: ${esc(n.reason)}</p>
<p>The award of <strong>${esc(prize)}</strong> (${esc(n.place)} place) to your team <strong>${
    esc(n.teamId)
  }</strong> is withdrawn until the competition is completed again, and the claim link we sent no longer works. If your team wins a prize in the final result, you will get a new e-mail with a new link.</p>
<p>Sorry for the confusion.</p>`;
  return { to: n.to, subject: `Your prize in ${n.competitionName} is withdrawn`, text, html };
}
