/**
 * What became of each payment (issue #9, the admin Payments screen, GET /api/admin/payments and
 * `deno task reconcile`): an entry (with its team ID), refunded, pending (paid, or a refund
 * decided, but not settled yet: the recovery sweep finishes it) or unpaid (an intent opened and
 * never paid). Read from the checkouts (a settled one is kept for good) and the refunds.
 */
import {
  getPendingCheckout,
  listPendingCheckoutIds,
  pageFinalisedCheckouts,
  type PendingCheckout,
} from "@/lib/db/checkouts.ts";
import { listCompetitions } from "@/lib/db/competitions.ts";
import { getRefund, listPendingRefundIds, listRefunds, type Refund } from "@/lib/db/refunds.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import type { PaymentProvider } from "./provider.ts";

export const PAYMENT_STATES = ["entry", "refunded", "pending", "unpaid"] as const;
export type PaymentState = typeof PAYMENT_STATES[number];

/** The `?cursor=` of a page after the first (undefined on the first). */
export function parsePageCursor(raw: string | null): string | undefined {
  return raw === null || raw === "" ? undefined : raw;
}

/** The state asked for in `?status=` (null: every state); a 400 for anything else. */
export function parsePaymentState(raw: string | null): PaymentState | null {
  if (raw === null || raw === "") return null;
  if ((PAYMENT_STATES as readonly string[]).includes(raw)) return raw as PaymentState;
  throw fieldError("status", `Status must be one of: ${PAYMENT_STATES.join(", ")}`);
}

/** One payment as the admin sees it (no e-mail address). */
export interface PaymentRow {
  paymentIntentId: string;
  competitionId: number;
  teamName: string;
  /** Minor units. */
  amount: number;
  currency: string;
  state: PaymentState;
  /** The entry's team ID when state is "entry". */
  teamId: string | null;
  refundReason: string | null;
  createdAt: string;
}

export interface PaymentsReport {
  counts: Record<PaymentState, number>;
  payments: PaymentRow[];
  /** The cursor of the next page of entries (`?cursor=`), null on the last page. */
  next: string | null;
}

/** Payments per page of the Payments screen and API. */
export const PAGE_SIZE = 200;

function row(
  checkout: PendingCheckout | null,
  refund: Refund | null,
  state: PaymentState,
): PaymentRow {
  const source = (checkout ?? refund)!;
  return {
    paymentIntentId: source.paymentIntentId,
    competitionId: source.competitionId,
    teamName: checkout?.teamName ?? "",
    amount: source.amount,
    currency: source.currency,
    state,
    teamId: state === "entry" ? checkout?.teamId ?? null : null,
    refundReason: refund?.reason ?? checkout?.refundReason ?? null,
    createdAt: checkout?.createdAt ?? refund!.createdAt,
  };
}

/** The payments not settled yet: pending refunds, and pending checkouts (paid or not). */
async function unsettled(kv: Deno.Kv, payments: PaymentProvider): Promise<PaymentRow[]> {
  const rows = new Map<string, PaymentRow>();
  for (const id of await listPendingRefundIds(kv)) {
    const refund = await getRefund(kv, id);
    if (refund?.status !== "PENDING") continue;
    rows.set(id, row(await getPendingCheckout(kv, id), refund, "pending"));
  }
  for (const id of await listPendingCheckoutIds(kv)) {
    if (rows.has(id)) continue;
    const checkout = await getPendingCheckout(kv, id);
    if (checkout?.status !== "PENDING") continue;
    const refund = await getRefund(kv, id);
    if (refund) {
      rows.set(id, row(checkout, refund, refund.status === "DONE" ? "refunded" : "pending"));
      continue;
    }
    const intent = await payments.retrieveIntent(id).catch(() => null);
    rows.set(id, row(checkout, null, intent?.status === "succeeded" ? "pending" : "unpaid"));
  }
  return [...rows.values()];
}

/** Every refund confirmed, with the checkout of its payment when there is one. */
async function refunded(kv: Deno.Kv): Promise<PaymentRow[]> {
  const done = (await listRefunds(kv)).filter((r) => r.status === "DONE");
  return await Promise.all(
    done.map(async (refund) =>
      row(await getPendingCheckout(kv, refund.paymentIntentId), refund, "refunded")
    ),
  );
}

/**
 * The count of payments per state, and the payments of `status` (all states when null: unsettled
 * first, then refunded, then entries). Entries come `limit` a page, `next` being the cursor of the
 * next page (null on the last); the first page also holds every payment that did not end as an
 * entry (up to `limit` of them when one such state is asked for). The entry count is the sum of
 * the competitions' entries (every entry is paid).
 */
export async function listPayments(
  { kv, payments }: { kv: Deno.Kv; payments: PaymentProvider },
  status: PaymentState | null = null,
  { limit = PAGE_SIZE, cursor }: { limit?: number; cursor?: string } = {},
): Promise<PaymentsReport> {
  const [open, done, competitions] = await Promise.all([
    unsettled(kv, payments),
    refunded(kv),
    listCompetitions(kv),
  ]);
  const settledHere = new Set(done.map((r) => r.paymentIntentId));
  const pendingRows = open.filter((r) => !settledHere.has(r.paymentIntentId));
  const counts: Record<PaymentState, number> = {
    entry: competitions.reduce((sum, c) => sum + c.currentEntries, 0),
    refunded: done.length,
    pending: pendingRows.filter((r) => r.state === "pending").length,
    unpaid: pendingRows.filter((r) => r.state === "unpaid").length,
  };
  const listed = cursor === undefined
    ? [...pendingRows, ...done].filter((r) => status === null || r.state === status)
    : [];
  if (status !== null && status !== "entry") {
    return { counts, payments: listed.slice(0, limit), next: null };
  }
  const page = await pageFinalisedCheckouts(kv, limit, cursor);
  const entries = page.checkouts.map((checkout) => row(checkout, null, "entry"));
  return { counts, payments: [...listed, ...entries], next: page.next };
}
