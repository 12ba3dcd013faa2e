/**
 * Recovery without the browser: a sweep over the checkouts still PENDING and the
 * refunds not yet confirmed, at start-up and every few seconds, so every succeeded payment ends
 * as exactly one entry or one refund even when the process that took it died before the browser
 * came back (test mode and Stripe, webhook configured or not). Many isolates run the sweeper; a
 * KV lease lets one of them sweep at a time, and every step is idempotent anyway.
 *
 * It also expires what was never paid: an intent unpaid for UNPAID_INTENT_TTL_MS is
 * cancelled at the provider, and only once the provider says it is cancelled (so it can never be
 * paid) is its pending checkout removed. When the payment won the race (the provider refuses to
 * cancel a succeeded intent), the checkout is kept and becomes its entry or refund as usual.
 */
import {
  deleteUnpaidCheckout,
  getPendingCheckout,
  listPendingCheckoutIds,
} from "@/lib/db/checkouts.ts";
import { releaseLease, takeLease } from "@/lib/db/leases.ts";
import { recordSweep } from "@/lib/telemetry.ts";
import { getRefund, listPendingRefundIds } from "@/lib/db/refunds.ts";
import { resumeCancellations } from "./cancellation.ts";
import { cancelUnderfilled } from "./min_entries.ts";
import { notifyWinners } from "./payouts.ts";
import { advanceCompetitionStatuses } from "@/lib/db/status_clock.ts";
import { type CheckoutDeps, finishPendingRefund, settlePayment } from "./checkout.ts";
import { type IntentStatus, type PaymentIntentInfo, UNPAID_INTENT_TTL_MS } from "./provider.ts";

const LEASE = "payment_sweep";
/** A checkout younger than this is left to its browser. */
export const SWEEP_GRACE_MS = 5_000;
const DEFAULT_INTERVAL_MS = 10_000;
/** Longer than a sweep takes; a dead holder's lease lapses after it. */
const LEASE_MS = 25_000;
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

async function sweepRefund(
  deps: CheckoutDeps,
  paymentIntentId: string,
  now: Date,
  report: SweepReport,
): Promise<void> {
  const refund = await getRefund(deps.kv, paymentIntentId);
  if (!refund || refund.status === "DONE") return;
  try {
    await finishPendingRefund(deps, refund, now);
    report.refunded++;
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
 * One pass: every PENDING checkout older than SWEEP_GRACE_MS whose payment succeeded becomes its
 * entry (or is refunded when it cannot), every pending refund is asked again, and what stayed
 * unpaid for UNPAID_INTENT_TTL_MS is cancelled at the provider and removed.
 */
export async function sweepPayments(
  deps: CheckoutDeps,
  origin: string,
  now = new Date(),
): Promise<SweepReport> {
  const report: SweepReport = { finalised: 0, refunded: 0, expired: 0, failed: 0 };
  const refunds = await listPendingRefundIds(deps.kv);
  await eachInParallel(refunds, (id) => sweepRefund(deps, id, now, report));
  const checkouts = await listPendingCheckoutIds(deps.kv);
  await eachInParallel(checkouts, (id) => sweepCheckout(deps, id, origin, now, report));
  const expiredBefore = new Date(now.getTime() - UNPAID_INTENT_TTL_MS);
  const lone = await deps.payments.listUnpaidIntents(expiredBefore, EXPIRE_BATCH);
  await eachInParallel(lone, (id) => sweepLoneIntent(deps, id, report));
  await cancelUnderfilled(deps, origin, now).catch((err) => {
    report.failed++;
    console.error(`Payment sweep: an under-filled competition was not cancelled: ${reason(err)}`);
  });
  // Automatic competitions go LIVE at kick-off and COMPLETED after their result (status_clock.ts).
  await advanceCompetitionStatuses(deps.kv, now).catch((err) => {
    report.failed++;
    console.error(`Payment sweep: automatic statuses not moved: ${reason(err)}`);
  });
  // Winners not told yet (the award just happened, or an e-mail failed) get their claim link.
  await notifyWinners(deps, origin, undefined, now).catch((err) => {
    report.failed++;
    console.error(`Payment sweep: winners were not told: ${reason(err)}`);
  });
  // Cancellations whose process died (their job's lease lapsed) go on from where they stopped.
  await resumeCancellations(deps, `sweep-${crypto.randomUUID()}`).catch((err) => {
    report.failed++;
    console.error(`Payment sweep: a cancellation could not resume: ${reason(err)}`);
  });
  return report;
}

/** A running sweeper; `stop` waits for a sweep under way. */
export interface PaymentSweeper {
  stop(): Promise<void>;
}

/** The cron schedule of the sweep on Deno Deploy (a minute is Deno.cron's shortest interval). */
export const SWEEP_CRON = "* * * * *";

/** Sweeps once, logs what it did when it did something, and reports it to telemetry. */
async function sweepAndReport(deps: CheckoutDeps, origin: string): Promise<void> {
  const report = await sweepPayments(deps, origin);
  recordSweep({ ...report });
  if (report.finalised + report.refunded + report.expired + report.failed > 0) {
    console.log(
      `Payment sweep: ${report.finalised} entries made, ${report.refunded} refunded, ` +
        `${report.expired} unpaid expired, ${report.failed} to retry`,
    );
  }
}

/**
 * Schedules the sweep: with `cron` (Deno Deploy, where `Deno.cron` runs one sweep per schedule
 * across all isolates) every minute, no run before `ready` settles; elsewhere under the lease
 * (startPaymentSweeper).
 */
export function schedulePaymentSweeps(
  deps: CheckoutDeps,
  origin: string,
  {
    cron = false,
    intervalMs = DEFAULT_INTERVAL_MS,
    ready = Promise.resolve() as Promise<unknown>,
  } = {},
): PaymentSweeper {
  if (!cron || typeof Deno.cron !== "function") {
    return startPaymentSweeper(deps, origin, { intervalMs });
  }
  let stopped = false;
  Deno.cron("payment sweep", SWEEP_CRON, async () => {
    await ready.catch(() => {});
    if (stopped) return;
    try {
      await sweepAndReport(deps, origin);
    } catch (err) {
      console.error(`Payment sweep failed: ${reason(err)}`);
    }
  });
  return {
    stop() {
      stopped = true; // a registered cron cannot be removed; it does nothing from now on
      return Promise.resolve();
    },
  };
}

/**
 * Sweeps now and every `intervalMs` while this process holds the sweep lease (one process or
 * isolate at a time; another takes over within LEASE_MS when the holder dies).
 */
export function startPaymentSweeper(
  deps: CheckoutDeps,
  origin: string,
  { intervalMs = DEFAULT_INTERVAL_MS } = {},
): PaymentSweeper {
  const owner = crypto.randomUUID();
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      try {
        if (!await takeLease(deps.kv, LEASE, owner, Math.max(LEASE_MS, intervalMs * 2))) return;
        await sweepAndReport(deps, origin);
      } catch (err) {
        if (!stopped) console.error(`Payment sweep failed: ${reason(err)}`);
      } finally {
        running = null;
      }
    })();
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  Deno.unrefTimer(timer);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await releaseLease(deps.kv, LEASE, owner).catch(() => {});
    },
  };
}
