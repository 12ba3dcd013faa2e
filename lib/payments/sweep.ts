/**
 * Recovery without the browser (issue #9): a sweep over the checkouts still PENDING and the
 * refunds not yet confirmed, at start-up and every few seconds, so every succeeded payment ends
 * as exactly one entry or one refund even when the process that took it died before the browser
 * came back (test mode and Stripe, webhook configured or not). Many isolates run the sweeper; a
 * KV lease lets one of them sweep at a time, and every step is idempotent anyway.
 */
import { getPendingCheckout, listPendingCheckoutIds } from "../db/checkouts.ts";
import { releaseLease, takeLease } from "../db/leases.ts";
import { getRefund, listPendingRefundIds } from "../db/refunds.ts";
import { ConflictError } from "../domain/errors.ts";
import { type CheckoutDeps, finaliseEntry, finishPendingRefund } from "./checkout.ts";

const LEASE = "payment_sweep";
/** A checkout younger than this is left to its browser. */
export const SWEEP_GRACE_MS = 5_000;
const DEFAULT_INTERVAL_MS = 10_000;
/** Longer than a sweep takes; a dead holder's lease lapses after it. */
const LEASE_MS = 25_000;
const PARALLEL = 8;

/** What one sweep did. */
export interface SweepReport {
  /** Paid checkouts turned into their entry. */
  finalised: number;
  /** Payments refunded (a paid checkout that could not become an entry, or a pending refund). */
  refunded: number;
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

/** Finishes one pending checkout whose payment succeeded: its entry, or its refund. */
async function sweepCheckout(
  deps: CheckoutDeps,
  paymentIntentId: string,
  origin: string,
  now: Date,
  report: SweepReport,
): Promise<void> {
  const checkout = await getPendingCheckout(deps.kv, paymentIntentId);
  if (checkout?.status !== "PENDING") return;
  if (now.getTime() - Date.parse(checkout.createdAt) < SWEEP_GRACE_MS) return;
  try {
    const intent = await deps.payments.retrieveIntent(paymentIntentId);
    if (intent?.status !== "succeeded") return;
    const { created } = await finaliseEntry(
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
    if (created) report.finalised++;
  } catch (err) {
    const refunded = (await getRefund(deps.kv, paymentIntentId))?.status === "DONE";
    if (err instanceof ConflictError && refunded) {
      report.refunded++;
      return;
    }
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

/**
 * One pass: every PENDING checkout older than SWEEP_GRACE_MS whose payment succeeded becomes its
 * entry (or is refunded when it cannot), and every pending refund is asked again.
 */
export async function sweepPayments(
  deps: CheckoutDeps,
  origin: string,
  now = new Date(),
): Promise<SweepReport> {
  const report: SweepReport = { finalised: 0, refunded: 0, failed: 0 };
  const refunds = await listPendingRefundIds(deps.kv);
  await eachInParallel(refunds, (id) => sweepRefund(deps, id, now, report));
  const checkouts = await listPendingCheckoutIds(deps.kv);
  await eachInParallel(checkouts, (id) => sweepCheckout(deps, id, origin, now, report));
  return report;
}

/** A running sweeper; `stop` waits for a sweep under way. */
export interface PaymentSweeper {
  stop(): Promise<void>;
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
        const report = await sweepPayments(deps, origin);
        if (report.finalised + report.refunded + report.failed > 0) {
          console.log(
            `Payment sweep: ${report.finalised} entries made, ${report.refunded} refunded, ` +
              `${report.failed} to retry`,
          );
        }
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
