/**
 * Stripe webhook handling: a `payment_intent.succeeded` finalises the pending checkout whose
 * browser never came back (or refunds it when the entry can no longer be made).
 */
import { captaincyOf } from "@/lib/domain/captain.ts";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";
import { type CheckoutDeps, settlePayment } from "./checkout.ts";

/** What became of a webhook event. */
export type WebhookOutcome = "ignored" | "finalised" | "already_done" | "refunded" | "failed";

/**
 * Finishes the pending checkout of a succeeded payment intent, if there is one still pending.
 * A checkout that can never become an entry (closed, full, its picks no longer pass the rules) is
 * refunded ("refunded"). Another refusal that will not change ("failed": the payment belongs to
 * another competition) is logged and acknowledged; a passing trouble (a busy store, the provider
 * down, a refund still pending) is thrown, so the route answers non-2xx and Stripe delivers the
 * event again later.
 */
export async function handlePaymentSucceeded(
  deps: CheckoutDeps,
  paymentIntentId: string,
  origin: string,
): Promise<WebhookOutcome> {
  const checkout = await getPendingCheckout(deps.kv, paymentIntentId);
  if (!checkout || checkout.status !== "PENDING") return "ignored";
  try {
    const settled = await settlePayment(deps, {
      competitionId: checkout.competitionId,
      email: checkout.email,
      teamName: checkout.teamName,
      playerIds: checkout.playerIds,
      ...captaincyOf(checkout),
      stripePaymentId: paymentIntentId,
    }, origin);
    if (settled.kind === "refunded") return "refunded";
    return settled.created ? "finalised" : "already_done";
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    console.error(`Webhook could not finalise checkout ${paymentIntentId}: ${err.message}`);
    return "failed";
  }
}
