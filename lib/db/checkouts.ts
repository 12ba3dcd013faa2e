/**
 * Checkouts keyed by payment intent id: the picks kept at payment-intent time so the webhook or
 * the recovery sweep can finalise an entry whose browser never came back. A PENDING checkout is
 * listed in `checkouts_pending`; once FINALISED (an entry) or REFUNDED it is kept for good, as
 * the record of that payment (the admin Payments screen). A PENDING checkout never expires by
 * itself (its payment may still succeed); the sweep removes it once its intent, unpaid for too
 * long, was cancelled at the provider (`deleteUnpaidCheckout`).
 */
import { fieldError } from "@/lib/domain/errors.ts";
import { commitGrouped } from "@/lib/store/group_commit.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { listKeys, retryAtomic } from "@/lib/store/util.ts";

export type CheckoutStatus = "PENDING" | "FINALISED" | "REFUNDED";

export interface PendingCheckoutInput {
  paymentIntentId: string;
  competitionId: number;
  email: string;
  teamName: string;
  playerIds: number[];
  /** The captain and vice-captain picks, when the competition has captains. */
  captainId?: number;
  viceCaptainId?: number;
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

/** A PENDING checkout of `input`, not yet saved. */
export function newCheckout(input: PendingCheckoutInput): PendingCheckout {
  return {
    ...input,
    playerIds: [...input.playerIds],
    status: "PENDING",
    teamId: null,
    refundReason: null,
    updatedAt: new Date().toISOString(),
  };
}

/** Saves (or replaces) the pending checkout of a payment intent. */
export async function savePendingCheckout(
  kv: Deno.Kv,
  input: PendingCheckoutInput,
): Promise<PendingCheckout> {
  const checkout = newCheckout(input);
  await commitGrouped(kv, { checks: [], mutations: checkoutMutations(checkout) });
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
    const res = await kv.atomic().check(entry).mutate(...checkoutMutations(checkout)).commit();
    return res.ok ? checkout : undefined;
  });
}

/** The checkout once turned into the entry `teamId`. */
export function finalisedCheckout(checkout: PendingCheckout, teamId: string): PendingCheckout {
  return { ...checkout, status: "FINALISED", teamId, updatedAt: new Date().toISOString() };
}

/**
 * The writes of a checkout: a PENDING one is indexed, a settled one leaves the index. Neither
 * expires (a set also clears the expiry that older checkouts carried).
 */
export function checkoutMutations(checkout: PendingCheckout): Deno.KvMutation[] {
  const key = keys.checkout(checkout.paymentIntentId);
  const pendingKey = keys.checkoutPending(checkout.paymentIntentId);
  if (checkout.status !== "PENDING") {
    return [{ type: "set", key, value: checkout }, { type: "delete", key: pendingKey }];
  }
  return [
    { type: "set", key, value: checkout },
    { type: "set", key: pendingKey, value: checkout.createdAt },
  ];
}

/**
 * Removes a checkout that is still PENDING (and its index entry) in one atomic checked against a
 * concurrent change; false when it is gone or no longer PENDING. Only for a checkout whose
 * payment can never succeed: its intent was cancelled at the provider, or the provider does not
 * know it.
 */
export function deleteUnpaidCheckout(kv: Deno.Kv, paymentIntentId: string): Promise<boolean> {
  return retryAtomic("remove the checkout", async () => {
    if (!isKeyText(paymentIntentId)) return false;
    const entry = await kv.get<PendingCheckout>(keys.checkout(paymentIntentId));
    if (entry.value?.status !== "PENDING") return false;
    const res = await kv.atomic().check(entry)
      .delete(entry.key)
      .delete(keys.checkoutPending(paymentIntentId))
      .commit();
    return res.ok ? true : undefined;
  });
}

/** Adds the write of a checkout (and its pending index) to an atomic. */
export function setCheckout(op: Deno.AtomicOperation, checkout: PendingCheckout): void {
  op.mutate(...checkoutMutations(checkout));
}

/** The payment intent ids of the checkouts still PENDING. */
export async function listPendingCheckoutIds(kv: Deno.Kv): Promise<string[]> {
  return (await listKeys(kv, keys.checkoutsPending())).map((key) => String(key[1]));
}

/** A KV list cursor: base64 of a key, of a sensible length. */
const CURSOR = /^[A-Za-z0-9+/_-]{1,1000}={0,2}$/;
const invalidCursor = () => fieldError("cursor", "Invalid page cursor");

/**
 * The FINALISED checkouts (paid entries) after `cursor`, at most `limit`, in key order, and the
 * cursor of the next page (null at the end). Throws InvalidInputError (field `cursor`) for a
 * cursor that is not one of ours.
 */
export async function pageFinalisedCheckouts(
  kv: Deno.Kv,
  limit: number,
  cursor?: string,
): Promise<{ checkouts: PendingCheckout[]; next: string | null }> {
  if (cursor !== undefined && !CURSOR.test(cursor)) throw invalidCursor();
  const checkouts: PendingCheckout[] = [];
  if (limit <= 0) return { checkouts, next: null };
  const iter = kv.list<PendingCheckout>({ prefix: keys.checkouts() }, { cursor, batchSize: 500 });
  let last = "";
  try {
    for await (const { value } of iter) {
      if (value.status !== "FINALISED") continue;
      // One more than the page holds: there is a next page, starting after the page's last.
      if (checkouts.length >= limit) return { checkouts, next: last };
      checkouts.push(value);
      last = iter.cursor;
    }
  } catch (err) {
    // The prefix and batch size are ours: the one argument Deno KV can refuse (a TypeError, its
    // class for bad arguments) is the caller's cursor, e.g. well-formed text that is no cursor.
    if (err instanceof TypeError && cursor !== undefined) throw invalidCursor();
    throw err;
  }
  return { checkouts, next: null };
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
