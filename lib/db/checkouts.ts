/**
 * Pending checkouts keyed by payment intent id: the picks kept at payment-intent time so the
 * webhook can finalise an entry whose browser never came back. They expire after 7 days.
 */
import { commitGrouped } from "./group_commit.ts";
import { isKeyText, keys } from "./keys.ts";
import { retryAtomic } from "./util.ts";

export const CHECKOUT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type CheckoutStatus = "PENDING" | "FINALISED" | "REFUNDED";

export interface PendingCheckoutInput {
  paymentIntentId: string;
  competitionId: number;
  email: string;
  teamName: string;
  playerIds: number[];
  /** Minor units. */
  amount: number;
  /** Lower case ISO code. */
  currency: string;
  createdAt: string;
}

export interface PendingCheckout extends PendingCheckoutInput {
  status: CheckoutStatus;
  /** The entry's team id once finalised. */
  teamId: string | null;
  refundReason: string | null;
  updatedAt: string;
}

/** Saves (or replaces) the pending checkout of a payment intent. */
export async function savePendingCheckout(
  kv: Deno.Kv,
  input: PendingCheckoutInput,
): Promise<PendingCheckout> {
  const checkout: PendingCheckout = {
    ...input,
    playerIds: [...input.playerIds],
    status: "PENDING",
    teamId: null,
    refundReason: null,
    updatedAt: new Date().toISOString(),
  };
  const key = keys.checkout(input.paymentIntentId);
  await commitGrouped(kv, {
    checks: [],
    mutations: [{ type: "set", key, value: checkout, expireIn: CHECKOUT_TTL_MS }],
  });
  return checkout;
}

/** The checkout of a payment intent, or null (never saved or expired). */
export async function getPendingCheckout(
  kv: Deno.Kv,
  paymentIntentId: string,
): Promise<PendingCheckout | null> {
  if (!isKeyText(paymentIntentId)) return null;
  return (await kv.get<PendingCheckout>(keys.checkout(paymentIntentId))).value;
}

function updateCheckout(
  kv: Deno.Kv,
  paymentIntentId: string,
  patch: Partial<PendingCheckout>,
): Promise<PendingCheckout | null> {
  return retryAtomic("update the checkout", async () => {
    const entry = await kv.get<PendingCheckout>(keys.checkout(paymentIntentId));
    if (!entry.value) return null;
    const checkout = { ...entry.value, ...patch, updatedAt: new Date().toISOString() };
    const res = await kv.atomic().check(entry).set(entry.key, checkout, {
      expireIn: CHECKOUT_TTL_MS,
    }).commit();
    return res.ok ? checkout : undefined;
  });
}

/** The checkout once turned into the entry `teamId`. */
export function finalisedCheckout(checkout: PendingCheckout, teamId: string): PendingCheckout {
  return { ...checkout, status: "FINALISED", teamId, updatedAt: new Date().toISOString() };
}

/** Adds the write of a checkout (with its expiry) to an atomic. */
export function setCheckout(op: Deno.AtomicOperation, checkout: PendingCheckout): void {
  op.set(keys.checkout(checkout.paymentIntentId), checkout, { expireIn: CHECKOUT_TTL_MS });
}

/** Marks a checkout as turned into the entry `teamId`; null when there is no such checkout. */
export function markCheckoutFinalised(
  kv: Deno.Kv,
  paymentIntentId: string,
  teamId: string,
): Promise<PendingCheckout | null> {
  return updateCheckout(kv, paymentIntentId, { status: "FINALISED", teamId });
}

/** Marks a checkout as refunded, with why; null when there is no such checkout. */
export function markCheckoutRefunded(
  kv: Deno.Kv,
  paymentIntentId: string,
  reason: string,
): Promise<PendingCheckout | null> {
  return updateCheckout(kv, paymentIntentId, { status: "REFUNDED", refundReason: reason });
}
