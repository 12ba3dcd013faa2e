/**
 * Refunds of payments that could not become entries: `["refunds", paymentIntentId]`, kept for
 * good (unlike checkouts). A refund is claimed in one atomic that also checks the payment made no
 * entry, and `createEntry` checks that no refund was claimed, so one payment ends as exactly one
 * of the two, whatever the order of browser, webhook and retries.
 */
import type { Entry } from "@/lib/domain/types.ts";
import { type OutboxInput, queueMail } from "./outbox.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { getManyValues, listKeys, listValues, retryAtomic } from "@/lib/store/util.ts";

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
  /** The entry refunded because its competition was cancelled (absent for other refunds). */
  entryTeamId?: string;
  /** When the entrant was told (cancellations, single refunds); null or absent before. */
  notifiedAt?: string | null;
  /** The admin who refunded this one entry (lib/db/entry_refund_decisions.ts); absent on other refunds. */
  refundedBy?: string;
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
      // Read here, not through entries.ts, which imports this module (no import cycle).
      const entry = (await kv.get<Entry>(keys.entry(byPayment.value))).value;
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

/**
 * Decides to refund the payment of an entry whose competition was cancelled: the entry stays
 * (shown as refunded) and its payment is refunded once. A refund decided before is returned as
 * it is, so a retried cancellation never refunds twice.
 */
export function claimEntryRefund(
  kv: Deno.Kv,
  input: RefundInput & { entryTeamId: string },
  now = new Date(),
): Promise<Refund> {
  const key = keys.refund(input.paymentIntentId);
  return retryAtomic("record the refund", async () => {
    const existing = await kv.get<Refund>(key);
    if (existing.value) return existing.value;
    const refund: Refund = {
      ...input,
      status: "PENDING",
      createdAt: now.toISOString(),
      completedAt: null,
      notifiedAt: null,
    };
    const res = await kv.atomic().check(existing).set(key, refund)
      .set(keys.refundPending(input.paymentIntentId), refund.createdAt).commit();
    return res.ok ? refund : undefined;
  });
}

/**
 * Records that the entrant was told about a refund and writes the e-mail to the outbox in the
 * same atomic, so the notice exists exactly once whatever crashes or retries: true when this call
 * wrote it, false when the refund was told before (or does not exist).
 */
export function recordRefundNotice(
  kv: Deno.Kv,
  paymentIntentId: string,
  mail: (refund: Refund) => OutboxInput,
  options: { deliver: boolean; now?: Date },
): Promise<boolean> {
  const key = keys.refund(paymentIntentId);
  const now = options.now ?? new Date();
  return retryAtomic("record the refund notice", async () => {
    const entry = await kv.get<Refund>(key);
    if (!entry.value || entry.value.notifiedAt) return false;
    const refund: Refund = { ...entry.value, notifiedAt: now.toISOString() };
    const op = kv.atomic().check(entry).set(key, refund).delete(
      keys.refundUnnotified(paymentIntentId),
    );
    queueMail(op, mail(entry.value), { ...options, about: `refund:${paymentIntentId}` });
    return (await op.commit()).ok ? true : undefined;
  });
}

/** The refunds of these payments that were decided, by payment id. */
export async function getRefunds(
  kv: Deno.Kv,
  paymentIntentIds: string[],
): Promise<Map<string, Refund>> {
  const ids = paymentIntentIds.filter(isKeyText);
  const refunds = await getManyValues<Refund>(kv, ids.map(keys.refund));
  return new Map(refunds.map((r) => [r.paymentIntentId, r]));
}
