/**
 * One refund: an admin refunds a single entry with a reason, without cancelling its competition.
 * Each step is a commit of its own, and each is idempotent, so a process killed between any two
 * neither loses nor doubles anything; the payment sweep (lib/payments/sweep.ts) finishes what a
 * dead process left:
 *
 * 1. the decision (lib/db/entry_refund_decisions.ts): refund record, entry refunded and off the
 *    leaderboard, entry count, activity record, all in one atomic commit;
 * 2. the provider refunds the payment (the payment is the idempotency key) and the refund is
 *    recorded DONE (`carryOutEntryRefund`, shared with cancellations);
 * 3. the entrant's e-mail is written to the outbox in the atomic that records them told
 *    (`recordRefundNotice`), then handed to SMTP (retried from the outbox).
 */
import type { AuditStamp } from "@/lib/db/audit.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { claimEntryRefundByAdmin, type EntryRefundClaim } from "@/lib/db/entry_refund_decisions.ts";
import { deliverOutbox, mailerDelivers } from "@/lib/db/outbox.ts";
import { getRefund, recordRefundNotice, type Refund } from "@/lib/db/refunds.ts";
import { buildEntryRefundNotice } from "@/lib/email/cancellation.ts";
import { carryOutEntryRefund } from "./cancellation.ts";
import type { CheckoutDeps } from "./checkout.ts";

/** The shortest and longest reason an admin gives for a single refund. */
export const REFUND_REASON_MIN = 3;
export const REFUND_REASON_MAX = 500;

/**
 * Refunds entry `teamId` of competition `cid` (see the module comment) and resolves to the
 * refund as it then stands: DONE and the entrant told, or still PENDING when the provider failed
 * (the sweep retries it). Refusals are those of `claimEntryRefundByAdmin`.
 * @example await refundOneEntry(deps, 7, "FFT-AB12CD", "Paid twice", origin, { admin: "admin" })
 */
export async function refundOneEntry(
  deps: CheckoutDeps,
  cid: number,
  teamId: string,
  reason: string,
  origin: string,
  options: { admin: string; audit?: AuditStamp; now?: Date },
): Promise<EntryRefundClaim> {
  const claim = await claimEntryRefundByAdmin(deps.kv, cid, teamId, reason, options);
  const refund = await finishEntryRefund(deps, claim.refund, origin, options.now);
  return { ...claim, refund };
}

/**
 * Carries a decided single-entry refund as far as it goes: the provider refund (once), then the
 * entrant's e-mail (once), then its delivery. Safe to run any number of times, anywhere.
 */
export async function finishEntryRefund(
  deps: CheckoutDeps,
  refund: Refund,
  origin: string,
  now = new Date(),
): Promise<Refund> {
  const { kv, mailer } = deps;
  let current = await carryOutEntryRefund(deps, refund, now);
  if (current.status !== "DONE" || current.notifiedAt) return current;
  const [entry, competition] = await Promise.all([
    getEntryByTeamId(kv, current.entryTeamId ?? ""),
    getCompetition(kv, current.competitionId),
  ]);
  if (!entry || !competition) {
    console.error(`Refund of ${current.paymentIntentId}: its entry or competition is gone`);
    return current;
  }
  await recordRefundNotice(
    kv,
    current.paymentIntentId,
    (r) =>
      buildEntryRefundNotice({
        entry,
        competition,
        reason: r.reason,
        amount: r.amount / 100,
        origin,
      }),
    { deliver: mailerDelivers(mailer), now },
  );
  current = await getRefund(kv, current.paymentIntentId) ?? current;
  await deliverOutbox(kv, mailer).catch((err) =>
    console.error(`Refund e-mail waits in the outbox: ${err}`)
  );
  return current;
}
