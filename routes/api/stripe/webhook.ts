import type { Handlers } from "$fresh/server.ts";
import { linkOrigin } from "@/lib/config.ts";
import { InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { StripePaymentProvider } from "@/lib/payments/stripe_provider.ts";
import { handlePaymentSucceeded } from "@/lib/payments/webhook.ts";
import { readText } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

const MAX_BYTES = 512 * 1024;

export const handler: Handlers<unknown, State> = {
  /** Stripe events, signature verified (400 otherwise); 404 when Stripe is not configured. */
  async POST(req, ctx) {
    const deps = ctx.state.services;
    const stripe = deps.payments;
    if (!(stripe instanceof StripePaymentProvider) || !stripe.acceptsWebhooks) {
      throw new NotFoundError();
    }
    const body = await readText(req, MAX_BYTES);
    const event = await stripe.verifyWebhook(body, req.headers.get("stripe-signature") ?? "")
      .catch(() => {
        throw new InvalidInputError("Invalid webhook signature");
      });
    if (event.type !== "payment_intent.succeeded") return json({ received: true });
    const intentId = (event.data as { object?: { id?: unknown } } | undefined)?.object?.id;
    if (typeof intentId !== "string" || intentId === "") {
      throw new InvalidInputError("The event has no payment intent (data.object.id)");
    }
    const outcome = await handlePaymentSucceeded(deps, intentId, linkOrigin(deps.config));
    return json({ received: true, outcome });
  },
};
