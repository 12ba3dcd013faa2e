/**
 * The rate limit of POST /api/create-payment-intent per client address, on the app's one rate
 * limiter. A buyer opens one payment per visit of the payment page, so 30 in 10 minutes is far
 * above what a real buyer (or a household behind one address) uses, while a client spamming
 * intents gets 429 before any record or provider call is made.
 */
import { hitRateLimit } from "../db/rate_limits.ts";
import { TooManyRequestsError } from "../domain/errors.ts";

export const INTENT_LIMIT = { bucket: "payment_intents", limit: 30, windowMs: 10 * 60_000 };

/**
 * Counts one payment intent of `address`; 429 with Retry-After past the limit. A request
 * whose address is unknown (an in-process call, not a network client) is not limited.
 */
export async function limitPaymentIntents(kv: Deno.Kv, address: string | null): Promise<void> {
  if (address === null) return;
  const rate = await hitRateLimit(kv, { ...INTENT_LIMIT, client: address });
  if (!rate.allowed) {
    throw new TooManyRequestsError(
      "Too many payment attempts from your address. Please wait a few minutes and try again.",
      rate.retryAfterSeconds,
    );
  }
}
