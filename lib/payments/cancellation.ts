/**
 * Cancelling a competition (e.g. its match was postponed): status CANCELLED, every paid entry
 * refunded through the payment provider exactly once, every entrant told by e-mail once. Safe
 * to run again: a retry finishes what a failed or interrupted run left (a refund the provider
 * refused, an e-mail the mail server did not take) and repeats nothing that was done.
 */
import { markCompetitionCancelled } from "@/lib/db/competitions.ts";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import {
  claimEntryRefund,
  claimNotice,
  markRefundDone,
  type Refund,
  releaseNotice,
} from "@/lib/db/refunds.ts";
import { toCents } from "@/lib/domain/format.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { buildCancellationNotice } from "@/lib/email/cancellation.ts";
import type { CheckoutDeps } from "./checkout.ts";

/** What a cancellation run achieved; `pending` refunds or `unnotified` entrants need a retry. */
export interface CancellationSummary {
  competition: Competition;
  entries: number;
  refunded: number;
  pending: number;
  notified: number;
  unnotified: number;
}

/** The refund reason of a cancelled competition's entries. */
function refundReason(competition: Competition): string {
  return `Competition cancelled: ${competition.cancelReason ?? "cancelled by the organiser"}`;
}

/**
 * Cancels the competition and refunds and notifies every entrant; see the module comment.
 * @example await cancelCompetition(deps, 7, "The match was postponed.", "https://example.com")
 */
export async function cancelCompetition(
  deps: CheckoutDeps,
  cid: number,
  reason: string,
  origin: string,
  now = new Date(),
): Promise<CancellationSummary> {
  const competition = await markCompetitionCancelled(deps.kv, cid, reason, now);
  const entries = await listEntriesByCompetition(deps.kv, cid);
  const summary: CancellationSummary = {
    competition,
    entries: entries.length,
    refunded: 0,
    pending: 0,
    notified: 0,
    unnotified: 0,
  };
  for (const entry of entries) {
    const refund = await refundEntry(deps, competition, entry, now);
    if (refund.status !== "DONE") {
      summary.pending++;
      continue;
    }
    summary.refunded++;
    if (await notifyEntrant(deps, competition, entry, refund, origin, now)) summary.notified++;
    else summary.unnotified++;
  }
  return summary;
}

/**
 * Claims the entry's refund (once, whatever the number of runs) and has the provider carry it
 * out while it is pending. A provider failure leaves it pending for the next run.
 */
async function refundEntry(
  { kv, payments }: CheckoutDeps,
  competition: Competition,
  entry: Entry,
  now: Date,
): Promise<Refund> {
  const refund = await claimEntryRefund(kv, {
    paymentIntentId: entry.stripePaymentId,
    competitionId: competition.id,
    entryTeamId: entry.teamId,
    reason: refundReason(competition),
    amount: entry.amountPaid ?? toCents(competition.entryFee),
    currency: entry.currency ?? competition.currency.toLowerCase(),
  }, now);
  if (refund.status === "DONE") return refund;
  try {
    // A payment the provider does not know (demo data) has nothing to give back.
    const intent = await payments.retrieveIntent(refund.paymentIntentId);
    if (intent) await payments.refund(refund.paymentIntentId, refund.reason);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    console.error(`Refund of ${refund.paymentIntentId} (entry ${entry.teamId}) failed: ${why}`);
    return refund;
  }
  return await markRefundDone(kv, refund.paymentIntentId, now);
}

/** E-mails the entrant once; true when they have been told (now or by an earlier run). */
async function notifyEntrant(
  { kv, mailer }: CheckoutDeps,
  competition: Competition,
  entry: Entry,
  refund: Refund,
  origin: string,
  now: Date,
): Promise<boolean> {
  if (refund.notifiedAt) return true;
  if (!await claimNotice(kv, refund.paymentIntentId, now)) return true;
  try {
    await mailer.send(buildCancellationNotice({
      entry,
      competition,
      reason: competition.cancelReason ?? "cancelled by the organiser",
      amount: refund.amount / 100,
      origin,
    }));
    return true;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    console.error(`Cancellation e-mail for entry ${entry.teamId} failed: ${why}`);
    await releaseNotice(kv, refund.paymentIntentId);
    return false;
  }
}
