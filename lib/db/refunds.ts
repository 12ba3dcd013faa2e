/**
 * Refunds of payments that could not become entries: `["refunds", paymentIntentId]`, kept for
 * good (unlike checkouts). A refund is claimed in one atomic that also checks the payment made no
 * entry, and `createEntry` checks that no refund was claimed, so one payment ends as exactly one
 * of the two, whatever the order of browser, webhook and retries.
 */
import type { Entry } from "../domain/types.ts";
import { getEntry } from "./entries.ts";
import { isKeyText, keys } from "./keys.ts";
import { listKeys, listValues, retryAtomic } from "./util.ts";

/** PENDING: decided, the provider has not confirmed it yet; DONE: the money went back. */
export type RefundStatus = "PENDING" | "DONE";

export interface RefundInput {
  paymentIntentId: string;
  competitionId: number;
  /** Why the payment could not become an entry (shown to the payer). */
  reason: string;
  /** Minor units. */
  amount: number;
  /** Lower case ISO code. */
  currency: string;
}

export interface Refund extends RefundInput {
  status: RefundStatus;
  createdAt: string;
  completedAt: string | null;
}

/** The refund of a payment, or null when none was ever decided. */
export async function getRefund(kv: Deno.Kv, paymentIntentId: string): Promise<Refund | null> {
  if (!isKeyText(paymentIntentId)) return null;
  return (await kv.get<Refund>(keys.refund(paymentIntentId))).value;
}

/**
 * Decides to refund a payment, unless it already paid for an entry: `{entry}` then, and nothing
 * is written. A refund decided before is returned as it is (`{refund}`, maybe already DONE).
 */
export function claimRefund(
  kv: Deno.Kv,
  input: RefundInput,
  now = new Date(),
): Promise<{ entry: Entry } | { refund: Refund }> {
  const refundKey = keys.refund(input.paymentIntentId);
  return retryAtomic("record the refund", async () => {
    const [byPayment, existing] = await kv.getMany<[number, Refund]>([
      keys.entryByPayment(input.paymentIntentId),
      refundKey,
    ]);
    if (byPayment.value !== null) {
      const entry = await getEntry(kv, byPayment.value);
      if (entry) return { entry };
    }
    if (existing.value) return { refund: existing.value };
    const refund: Refund = {
      ...input,
      status: "PENDING",
      createdAt: now.toISOString(),
      completedAt: null,
    };
    const res = await kv.atomic().check(byPayment).check(existing).set(refundKey, refund)
      .set(keys.refundPending(input.paymentIntentId), refund.createdAt).commit();
    return res.ok ? { refund } : undefined;
  });
}

/** Records that the provider confirmed the refund; returns the refund as saved. */
export function markRefundDone(
  kv: Deno.Kv,
  paymentIntentId: string,
  now = new Date(),
): Promise<Refund> {
  const key = keys.refund(paymentIntentId);
  return retryAtomic("record the refund", async () => {
    const entry = await kv.get<Refund>(key);
    if (!entry.value) throw new Error(`No refund was claimed for ${paymentIntentId}`);
    if (entry.value.status === "DONE") return entry.value;
    const refund: Refund = { ...entry.value, status: "DONE", completedAt: now.toISOString() };
    const res = await kv.atomic().check(entry).set(key, refund)
      .delete(keys.refundPending(paymentIntentId)).commit();
    return res.ok ? refund : undefined;
  });
}

/** The payment intent ids whose refund is decided but not yet confirmed by the provider. */
export async function listPendingRefundIds(kv: Deno.Kv): Promise<string[]> {
  return (await listKeys(kv, keys.refundsPending())).map((key) => String(key[1]));
}

/** Every refund ever decided. */
export function listRefunds(kv: Deno.Kv): Promise<Refund[]> {
  return listValues<Refund>(kv, keys.refunds());
}
