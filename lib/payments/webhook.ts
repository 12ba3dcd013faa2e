/**
 * Stripe webhook handling: a `payment_intent.succeeded` finalises the pending checkout whose
 * browser never came back (or refunds it when the entry can no longer be made).
 */
import { getPendingCheckout } from "../db/checkouts.ts";
import { ConflictError } from "../http/errors.ts";
import { type CheckoutDeps, finaliseEntry } from "./checkout.ts";

/** What became of a webhook event. */
export type WebhookOutcome = "ignored" | "finalised" | "already_done" | "refunded" | "failed";

/** Finishes the pending checkout of a succeeded payment intent, if there is one still pending. */
export async function handlePaymentSucceeded(
  deps: CheckoutDeps,
  paymentIntentId: string,
  origin: string,
): Promise<WebhookOutcome> {
  const checkout = await getPendingCheckout(deps.kv, paymentIntentId);
  if (!checkout || checkout.status !== "PENDING") return "ignored";
  try {
    const { created } = await finaliseEntry(deps, {
      competitionId: checkout.competitionId,
      email: checkout.email,
      teamName: checkout.teamName,
      playerIds: checkout.playerIds,
      stripePaymentId: paymentIntentId,
    }, origin);
    return created ? "finalised" : "already_done";
  } catch (err) {
    const refunded = (await getPendingCheckout(deps.kv, paymentIntentId))?.status === "REFUNDED";
    if (err instanceof ConflictError && refunded) return "refunded";
    console.error(`Webhook could not finalise checkout ${paymentIntentId}:`, err);
    return "failed";
  }
}
