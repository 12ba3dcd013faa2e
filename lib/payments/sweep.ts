/**
 * Recovery without the browser: a sweep over the checkouts still PENDING and the
 * refunds not yet confirmed, at start-up and every few seconds, so every succeeded payment ends
 * as exactly one entry or one refund even when the process that took it died before the browser
 * came back (test mode and Stripe, webhook configured or not). Both are jobs of lib/jobs.ts
 * (Deno.cron on Deploy, a KV lease elsewhere), and every step is idempotent anyway.
 *
 * It also expires what was never paid: an intent unpaid for UNPAID_INTENT_TTL_MS is
 * cancelled at the provider, and only once the provider says it is cancelled (so it can never be
 * paid) is its pending checkout removed. When the payment won the race (the provider refuses to
 * cancel a succeeded intent), the checkout is kept and becomes its entry or refund as usual.
 */
import { captaincyOf } from "@/lib/domain/captain.ts";
import {
  deleteUnpaidCheckout,
  getPendingCheckout,
  listPendingCheckoutIds,
} from "@/lib/db/checkouts.ts";
import { listUnnotifiedRefundIds } from "@/lib/db/entry_refund_decisions.ts";
import { getRefund, listPendingRefundIds } from "@/lib/db/refunds.ts";
import { carryOutEntryRefund } from "./cancellation.ts";
import { finishEntryRefund } from "./entry_refund.ts";
import { type CheckoutDeps, finishPendingRefund, settlePayment } from "./checkout.ts";
import { type IntentStatus, type PaymentIntentInfo, UNPAID_INTENT_TTL_MS } from "./provider.ts";

/** A checkout younger than this is left to its browser. */
export const SWEEP_GRACE_MS = 5_000;
const PARALLEL = 8;
/** Lone unpaid intents (opened without picks) cancelled per sweep at most. */
const EXPIRE_BATCH = 500;
/** The statuses in which an intent waits for the buyer and may be cancelled. */
const CANCELLABLE: readonly IntentStatus[] = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
];

/** What one sweep did. */
export interface SweepReport {
  /** Paid checkouts turned into their entry. */
  finalised: number;
  /** Payments refunded (a paid checkout that could not become an entry, or a pending refund). */
  refunded: number;
  /** Unpaid payments past UNPAID_INTENT_TTL_MS cancelled at the provider and removed. */
  expired: number;
  /** Steps that failed and are tried again next time (the provider down, …). */
  failed: number;
}

/** Runs `work` over `items`, `PARALLEL` at a time. */
async function eachInParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Cancels an unpaid intent past its time at the provider and removes its pending checkout once
 * the provider says it is cancelled. Returns the intent as it then stands: "succeeded" when the
 * payment won the race (the checkout is kept, to become its entry or refund), "processing" left
 * to finish. A test intent the provider no longer knows was cancelled or expired unpaid; an
 * intent unknown to Stripe (another account's key?) is kept for a person to look at.
 */
async function expireUnpaid(
  deps: CheckoutDeps,
  paymentIntentId: string,
  intent: PaymentIntentInfo | null,
  report: SweepReport,
): Promise<PaymentIntentInfo | null> {
  if (intent && CANCELLABLE.includes(intent.status)) {
    intent = await deps.payments.cancelIntent(paymentIntentId);
  }
  const gone = intent ? intent.status === "canceled" : deps.payments.mode === "test";
  if (!gone) return intent;
  if (await getRefund(deps.kv, paymentIntentId)) return intent;
  if (await deleteUnpaidCheckout(deps.kv, paymentIntentId)) report.expired++;
  return intent;
}

/**
 * Finishes one pending checkout whose payment succeeded: its entry, or its refund; one unpaid
 * past UNPAID_INTENT_TTL_MS is cancelled and removed (see expireUnpaid).
 */
async function sweepCheckout(
  deps: CheckoutDeps,
  paymentIntentId: string,
  origin: string,
  now: Date,
  report: SweepReport,
): Promise<void> {
  const checkout = await getPendingCheckout(deps.kv, paymentIntentId);
  if (checkout?.status !== "PENDING") return;
  const age = now.getTime() - Date.parse(checkout.createdAt);
  if (age < SWEEP_GRACE_MS) return;
  try {
    let intent = await deps.payments.retrieveIntent(paymentIntentId);
    if (intent?.status !== "succeeded" && age >= UNPAID_INTENT_TTL_MS) {
      intent = await expireUnpaid(deps, paymentIntentId, intent, report);
    }
    if (intent?.status !== "succeeded") return;
    const settled = await settlePayment(
      deps,
      {
        competitionId: checkout.competitionId,
        email: checkout.email,
        teamName: checkout.teamName,
        playerIds: checkout.playerIds,
        ...captaincyOf(checkout),
        stripePaymentId: paymentIntentId,
      },
      origin,
      now,
    );
    if (settled.kind === "refunded") report.refunded++;
    else if (settled.created) report.finalised++;
  } catch (err) {
    report.failed++;
    console.error(`Payment sweep: checkout ${paymentIntentId} not finished: ${reason(err)}`);
  }
}

/**
 * Finishes one refund left pending (or, for a single-entry refund, an entrant left untold): a
 * payment that could not become an entry ends with its checkout REFUNDED; an entry's refund (a
 * cancellation's, whose job tells the entrant, or an admin's single refund, told here) leaves
 * the checkout FINALISED, the record of the entry it paid for.
 */
async function sweepRefund(
  deps: CheckoutDeps,
  paymentIntentId: string,
  origin: string,
  now: Date,
  report: SweepReport,
): Promise<void> {
  const refund = await getRefund(deps.kv, paymentIntentId);
  if (!refund || (refund.status === "DONE" && (!refund.refundedBy || refund.notifiedAt))) return;
  try {
    const wasDone = refund.status === "DONE";
    const after = refund.refundedBy
      ? await finishEntryRefund(deps, refund, origin, now)
      : refund.entryTeamId
      ? await carryOutEntryRefund(deps, refund, now)
      : (await finishPendingRefund(deps, refund, now), null);
    if (after?.status === "PENDING") throw new Error("the payment provider refused it");
    if (!wasDone) report.refunded++;
  } catch (err) {
    report.failed++;
    console.error(`Payment sweep: refund of ${paymentIntentId} not finished: ${reason(err)}`);
  }
}

/** Cancels an intent opened without picks (no checkout) and unpaid past its time. */
async function sweepLoneIntent(
  deps: CheckoutDeps,
  paymentIntentId: string,
  report: SweepReport,
): Promise<void> {
  if (await getPendingCheckout(deps.kv, paymentIntentId)) return; // sweepCheckout's to expire
  try {
    if ((await deps.payments.cancelIntent(paymentIntentId))?.status === "canceled") {
      report.expired++;
    }
  } catch (err) {
    report.failed++;
    console.error(`Payment sweep: intent ${paymentIntentId} not cancelled: ${reason(err)}`);
  }
}

/**
 * The payment sweep (a job of lib/jobs.ts): every pending refund is asked again (and every
 * entrant of a single-entry refund not told yet is told), and every
 * PENDING checkout older than SWEEP_GRACE_MS whose payment succeeded becomes its entry (or is
 * refunded when it cannot); one unpaid for UNPAID_INTENT_TTL_MS is cancelled and removed.
 */
export async function settleCheckouts(
  deps: CheckoutDeps,
  origin: string,
  now: Date,
  report: SweepReport,
): Promise<void> {
  const refunds = await listPendingRefundIds(deps.kv);
  const untold = await listUnnotifiedRefundIds(deps.kv);
  await eachInParallel(
    [...new Set([...refunds, ...untold])],
    (id) => sweepRefund(deps, id, origin, now, report),
  );
  const checkouts = await listPendingCheckoutIds(deps.kv);
  await eachInParallel(checkouts, (id) => sweepCheckout(deps, id, origin, now, report));
}

/**
 * Intent expiry (a job of lib/jobs.ts): intents opened without picks (no checkout) and unpaid
 * for UNPAID_INTENT_TTL_MS are cancelled at the provider, EXPIRE_BATCH per run at most.
 */
export async function expireLoneIntents(
  deps: CheckoutDeps,
  now: Date,
  report: SweepReport,
): Promise<void> {
  const expiredBefore = new Date(now.getTime() - UNPAID_INTENT_TTL_MS);
  const lone = await deps.payments.listUnpaidIntents(expiredBefore, EXPIRE_BATCH);
  await eachInParallel(lone, (id) => sweepLoneIntent(deps, id, report));
}
