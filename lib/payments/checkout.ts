/**
 * The paid-entry flow of ARCHITECTURE §5: open a payment for an open competition, then turn a
 * succeeded payment into exactly one entry, or refund it exactly once when it can never become
 * one. Every path a payment can take (browser, webhook, retries, in any order) ends in one entry
 * or one refund, never both, never neither without an error the caller sees.
 */
import { getCompetition } from "@/lib/db/competitions.ts";
import { entryPlayers, withTeam } from "@/lib/db/players.ts";
import { closedReason } from "@/lib/domain/competition.ts";
import {
  getPendingCheckout,
  markCheckoutRefunded,
  savePendingCheckout,
} from "@/lib/db/checkouts.ts";
import {
  assertOpenForEntries,
  assertSameCompetition,
  assertValidPicks,
  competitionWithPicks,
  type CreatedEntry,
  createEntry,
  type EntryInput,
  InvalidPicksError,
  OTHER_COMPETITION_PAYMENT,
  PAYMENT_REFUNDED,
} from "@/lib/db/entries.ts";
import { type PaymentRecords, readPaymentRecords } from "@/lib/db/payment_records.ts";
import { claimRefund, markRefundDone, type Refund } from "@/lib/db/refunds.ts";
import { toCents } from "@/lib/domain/format.ts";
import type { PaymentIntentInput } from "@/lib/domain/schemas/public.ts";
import type { Competition, OpenedPayment } from "@/lib/domain/types.ts";
import { sendEntryConfirmation } from "@/lib/email/confirmation.ts";
import type { Mailer } from "@/lib/email/mailer.ts";
import {
  ConflictError,
  fieldError,
  NotFoundError,
  PaymentNotCompletedError,
  UpstreamError,
} from "@/lib/domain/errors.ts";
import type { PaymentIntentInfo, PaymentProvider } from "./provider.ts";

const REFUNDED_SUFFIX = " Your payment has been refunded.";
const FEE_CHANGED = "The entry fee has changed since this payment was made.";
const COMPETITION_GONE = "This competition no longer exists.";
const REFUNDED_AT_PROVIDER = "Refunded at the payment provider.";
const REFUND_FAILED =
  "Your payment could not be refunded automatically. Please try again in a moment or contact support.";

export interface CheckoutDeps {
  kv: Deno.Kv;
  payments: PaymentProvider;
  mailer: Mailer;
}

/** The amount in minor units and the lower-case currency a competition's entry costs. */
function entryPrice(competition: Competition): { amount: number; currency: string } {
  return { amount: toCents(competition.entryFee), currency: competition.currency.toLowerCase() };
}

/**
 * Creates a payment intent for the entry fee of an open competition (404 unknown; 409 closed,
 * past the deadline or full). With the picks, e-mail and name, the team is checked first and kept
 * as a pending checkout so the webhook can finish the entry if the browser never comes back.
 */
export async function openPayment(
  { kv, payments }: Pick<CheckoutDeps, "kv" | "payments">,
  input: PaymentIntentInput,
  now = new Date(),
): Promise<OpenedPayment> {
  const { competition, players, linked } = await competitionWithPicks(
    kv,
    input.competitionId,
    input.playerIds,
  );
  assertOpenForEntries(competition, now);
  if (input.playerIds) assertValidPicks(competition, players, linked);
  const { amount, currency } = entryPrice(competition);
  const intent = await payments.createIntent({
    amount,
    currency,
    metadata: { competitionId: String(competition.id) },
  });
  if (input.playerIds && input.email && input.teamName) {
    await savePendingCheckout(kv, {
      paymentIntentId: intent.id,
      competitionId: competition.id,
      email: input.email,
      teamName: input.teamName,
      playerIds: input.playerIds,
      amount,
      currency,
      createdAt: now.toISOString(),
    });
  }
  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    applePayAvailable: payments.mode === "stripe",
    mode: payments.mode,
    publishableKey: payments.publishableKey,
    amount,
    currency,
  };
}

/**
 * Turns a paid intent into its entry, once: the same payment again returns the same entry
 * (`created: false`). The payment must exist, have succeeded and be for this competition. When
 * it can never become an entry (the competition closed, filled up or went away, its fee changed,
 * or the picks break its team rules, e.g. a picked player was removed from it after the intent
 * was opened), it is refunded once and a 409 says so; a refunded payment never makes an entry.
 */
export async function finaliseEntry(
  deps: CheckoutDeps,
  input: EntryInput,
  origin: string,
  now = new Date(),
): Promise<CreatedEntry> {
  const { kv } = deps;
  const records = await readPaymentRecords(kv, input.stripePaymentId, input.competitionId);
  if (records.entry) {
    return { entry: assertSameCompetition(records.entry, input.competitionId), created: false };
  }
  await assertNotRefunded(deps, records, input, now);
  const intent = await paidIntent(deps, input, now);
  const { competition } = records;
  if (!competition) return await refundPayment(deps, input, intent, COMPETITION_GONE, now);
  if (!priceMatches(intent, competition)) {
    return await refundPayment(deps, input, intent, FEE_CHANGED, now);
  }
  let result: CreatedEntry;
  try {
    result = await createEntry(kv, input, now);
  } catch (err) {
    if (err instanceof InvalidPicksError) {
      return await refundPayment(deps, input, intent, err.message, now);
    }
    if (!isClosedError(err)) throw err;
    return await refundIfClosed(deps, input, intent, err, now);
  }
  // The entry's atomic also marked its pending checkout FINALISED.
  if (result.created) await confirmByEmail(deps, result, competition, origin);
  return result;
}

/** A refusal of createEntry that may mean the competition no longer takes this entry. */
function isClosedError(err: unknown): err is ConflictError | NotFoundError {
  if (err instanceof NotFoundError) return true;
  return err instanceof ConflictError && err.message !== PAYMENT_REFUNDED;
}

/** 409 when the payment was refunded before (finishing that refund first if it is pending). */
async function assertNotRefunded(
  deps: CheckoutDeps,
  { refund, checkout }: PaymentRecords,
  input: EntryInput,
  now: Date,
): Promise<void> {
  if (refund) {
    await completeRefund(deps, refund, input, now);
    throw new ConflictError(PAYMENT_REFUNDED);
  }
  if (checkout?.status === "REFUNDED") throw new ConflictError(PAYMENT_REFUNDED);
}

/**
 * The payment as the provider knows it, which must have succeeded (402 otherwise), be for the
 * competition asked for (400) and not have been refunded at the provider, e.g. by hand (409).
 */
async function paidIntent(
  deps: CheckoutDeps,
  input: EntryInput,
  now: Date,
): Promise<PaymentIntentInfo> {
  const intent = await deps.payments.retrieveIntent(input.stripePaymentId);
  if (!intent) {
    throw new PaymentNotCompletedError("Payment not found. Please complete the payment.");
  }
  if (intent.status !== "succeeded") {
    throw new PaymentNotCompletedError(
      "Payment has not been completed. Please complete the payment.",
    );
  }
  if (intent.metadata.competitionId !== String(input.competitionId)) {
    throw fieldError("stripePaymentId", OTHER_COMPETITION_PAYMENT);
  }
  if (intent.refunded) {
    await recordOutsideRefund(deps, input, intent, now);
    throw new ConflictError(PAYMENT_REFUNDED);
  }
  return intent;
}

function priceMatches(intent: PaymentIntentInfo, competition: Competition): boolean {
  const price = entryPrice(competition);
  return intent.amount === price.amount && intent.currency.toLowerCase() === price.currency;
}

/**
 * After createEntry refused: when the competition really is closed, full, past its deadline or
 * gone, refunds the payment (see refundPayment). Other conflicts (a busy store) are rethrown:
 * the client may simply try again.
 */
async function refundIfClosed(
  deps: CheckoutDeps,
  input: EntryInput,
  intent: PaymentIntentInfo,
  refusal: ConflictError | NotFoundError,
  now: Date,
): Promise<CreatedEntry> {
  const competition = await getCompetition(deps.kv, input.competitionId);
  const reason = competition ? closedReason(competition, now) : COMPETITION_GONE;
  if (!reason) throw refusal;
  return await refundPayment(deps, input, intent, reason, now);
}

/** Claims the refund of the intent paying for `input`, for `reason` (see claimRefund). */
function claimPaymentRefund(
  kv: Deno.Kv,
  input: EntryInput,
  intent: PaymentIntentInfo,
  reason: string,
  now: Date,
): ReturnType<typeof claimRefund> {
  return claimRefund(kv, {
    paymentIntentId: input.stripePaymentId,
    competitionId: input.competitionId,
    reason,
    amount: intent.amount,
    currency: intent.currency.toLowerCase(),
  }, now);
}

/**
 * Refunds a payment that cannot become an entry and throws the 409 that says why. The refund is
 * claimed first, atomically with a check that the payment made no entry: if a concurrent request
 * (browser or webhook) just made one, that entry is returned and nothing is refunded.
 */
async function refundPayment(
  deps: CheckoutDeps,
  input: EntryInput,
  intent: PaymentIntentInfo,
  reason: string,
  now: Date,
): Promise<CreatedEntry> {
  const claim = await claimPaymentRefund(deps.kv, input, intent, reason, now);
  if ("entry" in claim) {
    return { entry: assertSameCompetition(claim.entry, input.competitionId), created: false };
  }
  await completeRefund(deps, claim.refund, input, now);
  throw new ConflictError(claim.refund.reason + REFUNDED_SUFFIX);
}

/**
 * Asks the provider for a claimed refund that is still pending and records it done. When the
 * provider fails, the claim stays PENDING (so the payment still never makes an entry) and the
 * next attempt, by the browser or a redelivered webhook, asks again: 502 meanwhile.
 */
async function completeRefund(
  deps: CheckoutDeps,
  refund: Refund,
  input: EntryInput,
  now: Date,
): Promise<void> {
  if (refund.status !== "DONE") {
    try {
      await deps.payments.refund(refund.paymentIntentId, refund.reason);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      console.error(`Refund of ${refund.paymentIntentId} failed (will retry): ${why}`);
      throw new UpstreamError(REFUND_FAILED);
    }
    refund = await markRefundDone(deps.kv, refund.paymentIntentId, now);
  }
  // Also after a crash between the two writes: the checkout ends REFUNDED too.
  await recordCheckoutRefund(deps.kv, input, refund, now);
}

/**
 * Finishes a refund that was decided but not confirmed (the process died, or the provider was
 * down): asks the provider again and records it done (BadGatewayError while it still fails).
 */
export async function finishPendingRefund(
  deps: CheckoutDeps,
  refund: Refund,
  now = new Date(),
): Promise<void> {
  const checkout = await getPendingCheckout(deps.kv, refund.paymentIntentId);
  await completeRefund(deps, refund, {
    competitionId: refund.competitionId,
    email: checkout?.email ?? "",
    teamName: checkout?.teamName ?? "",
    playerIds: checkout?.playerIds ?? [],
    stripePaymentId: refund.paymentIntentId,
  }, now);
}

/** Records a refund made outside the app (at the provider) so the payment is known refunded. */
async function recordOutsideRefund(
  deps: CheckoutDeps,
  input: EntryInput,
  intent: PaymentIntentInfo,
  now: Date,
): Promise<void> {
  const claim = await claimPaymentRefund(deps.kv, input, intent, REFUNDED_AT_PROVIDER, now);
  if (!("refund" in claim) || claim.refund.status === "DONE") return;
  const refund = await markRefundDone(deps.kv, input.stripePaymentId, now);
  await recordCheckoutRefund(deps.kv, input, refund, now);
}

/** The checkout of a refunded payment says so (created for the record when there was none). */
async function recordCheckoutRefund(
  kv: Deno.Kv,
  input: EntryInput,
  refund: Refund,
  now: Date,
): Promise<void> {
  const checkout = await getPendingCheckout(kv, input.stripePaymentId);
  if (checkout?.status === "REFUNDED") return;
  if (!checkout) {
    await savePendingCheckout(kv, {
      paymentIntentId: input.stripePaymentId,
      competitionId: input.competitionId,
      email: input.email,
      teamName: input.teamName,
      playerIds: input.playerIds,
      amount: refund.amount,
      currency: refund.currency,
      createdAt: now.toISOString(),
    });
  }
  await markCheckoutRefunded(kv, input.stripePaymentId, refund.reason);
}

async function confirmByEmail(
  { kv, mailer }: CheckoutDeps,
  { entry, players: picks }: CreatedEntry,
  competition: Competition,
  origin: string,
): Promise<void> {
  try {
    // The commit just read the picks: only their teams are read again.
    const players = picks ? await withTeam(kv, picks) : await entryPlayers(kv, entry);
    await sendEntryConfirmation(mailer, { entry, competition, players, origin });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    console.error(`Confirmation e-mail for entry ${entry.teamId} failed: ${reason}`);
  }
}
