/**
 * The rate limit of POST /api/create-payment-intent per client address, on the app's one rate
 * limiter. A buyer opens one payment per visit of the payment page, so 30 in 10 minutes is far
 * above what a real buyer (or a household behind one address) uses, while a client spamming
 * intents gets 429 before any record or provider call is made.
 */
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";

export const INTENT_LIMIT = { bucket: "payment_intents", limit: 30, windowMs: 10 * 60_000 };

/**
 * Counts one payment intent of `address`; 429 with Retry-After past `limit` (the
 * PAYMENT_INTENTS_PER_10_MIN setting; 0 turns it off for load benches that buy from one address).
 */
export async function limitPaymentIntents(
  kv: Deno.Kv,
  address: string | null,
  limit = INTENT_LIMIT.limit,
): Promise<void> {
  if (address === null || limit === 0) return;
  const rate = await hitRateLimit(kv, { ...INTENT_LIMIT, limit, client: address });
  if (!rate.allowed) {
    throw new TooManyRequestsError(
      "Too many payment attempts from your address. Please wait a few minutes and try again.",
      rate.retryAfterSeconds,
    );
  }
}
