/**
 * The limits of POST /api/create-payment-intent, on the app's one rate limiter. They count by
 * person, not by address: a stadium's Wi-Fi or a carrier's NAT puts thousands of real buyers
 * behind one address, each with their own e-mail. So:
 * - per e-mail address (as the entry limit counts a person, `personOf`): 30 intents in 10
 *   minutes; a buyer opens one per visit of the payment page (a few, for several entries), an
 *   abuser opening intents without paying is stopped here;
 * - per client address, a ceiling of 5,000 in 10 minutes (PAYMENT_INTENTS_PER_10_MIN): far above
 *   2,000 buyers behind one address, it stops one machine inventing e-mails;
 * - an intent without an e-mail (the API allows it; the checkout always sends one) counts 30 per
 *   client address in 10 minutes, as before.
 * The limits are read before the provider is called (a refused request stores nothing and calls
 * nothing) and counted in the same grouped write as the pending checkout.
 */
import {
  commitWithHits,
  type PreparedHits,
  prepareHits,
  type RateLimit,
} from "@/lib/db/rate_limits.ts";
import { personOf } from "@/lib/domain/paid_entry.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";

const WINDOW_MS = 10 * 60_000;

/** Intents without an e-mail, per client address. */
export const INTENT_LIMIT = { bucket: "payment_intents", limit: 30, windowMs: WINDOW_MS };
/** Intents per person (e-mail address). */
export const INTENT_PERSON_LIMIT = {
  bucket: "payment_intents_person",
  limit: 30,
  windowMs: WINDOW_MS,
};
/** Intents per client address, whoever opens them. */
export const INTENT_ADDRESS_CEILING = {
  bucket: "payment_intents_address",
  limit: 5_000,
  windowMs: WINDOW_MS,
};

/** Which limits one intent counts against. */
export interface IntentLimits {
  limits: RateLimit[];
  ceilings: RateLimit[];
}

/**
 * The limits of an intent from `address` for `email`; `ceiling` is the PAYMENT_INTENTS_PER_10_MIN
 * setting (0 turns every limit off, for load benches).
 */
export function intentLimits(
  address: string | null,
  email: string | undefined,
  ceiling = INTENT_ADDRESS_CEILING.limit,
): IntentLimits {
  if (ceiling === 0) return { limits: [], ceilings: [] };
  const perAddress = address === null
    ? []
    : [{ ...INTENT_ADDRESS_CEILING, limit: ceiling, client: address }];
  if (!email) {
    const anonymous = address === null ? [] : [{ ...INTENT_LIMIT, client: address }];
    return { limits: anonymous, ceilings: perAddress };
  }
  return {
    limits: [{ ...INTENT_PERSON_LIMIT, client: personOf(email) }],
    ceilings: perAddress,
  };
}

function tooMany(hits: PreparedHits): never {
  const retryAfter = hits.allowed ? 60 : hits.retryAfterSeconds;
  throw new TooManyRequestsError(
    "Too many payment attempts. Please wait a few minutes and try again.",
    retryAfter,
  );
}

/** Reads the limits (eventually) and throws 429 with Retry-After when one is full. */
export async function checkIntentLimits(kv: Deno.Kv, plan: IntentLimits): Promise<PreparedHits> {
  const hits = await prepareHits(kv, plan.limits, plan.ceilings);
  if (!hits.allowed) tooMany(hits);
  return hits;
}

/** Counts the intent (`prepared` by `checkIntentLimits`) with `mutations`, in one write. */
export async function countIntent(
  kv: Deno.Kv,
  plan: IntentLimits,
  prepared: PreparedHits,
  mutations: Deno.KvMutation[],
): Promise<void> {
  const hits = await commitWithHits(kv, plan.limits, plan.ceilings, prepared, mutations);
  if (!hits.allowed) tooMany(hits);
}
