/**
 * The paid-entry flow of ARCHITECTURE §5: open a payment for an open competition, then turn a
 * succeeded payment into exactly one entry, refunding it when the entry can no longer be made.
 */
import { listCompetitionPlayerIds } from "../db/competition_players.ts";
import { requireCompetition } from "../db/competitions.ts";
import {
  getPendingCheckout,
  markCheckoutFinalised,
  markCheckoutRefunded,
  savePendingCheckout,
} from "../db/checkouts.ts";
import {
  assertOpenForEntries,
  type CreatedEntry,
  createEntry,
  type EntryInput,
  getEntryByPayment,
} from "../db/entries.ts";
import { getPlayersByIds, withTeam } from "../db/players.ts";
import { toCents } from "../domain/format.ts";
import type { PaymentIntentInput } from "../domain/schemas.ts";
import { rulesOf, validateTeam } from "../domain/team_rules.ts";
import type { Competition } from "../domain/types.ts";
import { sendEntryConfirmation } from "../email/confirmation.ts";
import type { Mailer } from "../email/mailer.ts";
import { BadRequestError, ConflictError, PaymentRequiredError } from "../http/errors.ts";
import type { PaymentProvider } from "./provider.ts";

export const REFUNDED_SUFFIX = " Your payment has been refunded.";

export interface CheckoutDeps {
  kv: Deno.Kv;
  payments: PaymentProvider;
  mailer: Mailer;
}

/** The answer of POST /api/create-payment-intent. */
export interface OpenedPayment {
  clientSecret: string;
  paymentIntentId: string;
  applePayAvailable: boolean;
  mode: "test" | "stripe";
  publishableKey: string | null;
  amount: number;
  currency: string;
}

/** The amount in minor units and the lower-case currency a competition's entry costs. */
export function entryPrice(competition: Competition): { amount: number; currency: string } {
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
  const competition = await requireCompetition(kv, input.competitionId);
  assertOpenForEntries(competition, now);
  if (input.playerIds) await assertValidPicks(kv, competition, input.playerIds);
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
 * (`created: false`). The payment must exist, have succeeded and match the competition's fee;
 * when the competition no longer takes entries the payment is refunded and a 409 says so.
 */
export async function finaliseEntry(
  deps: CheckoutDeps,
  input: EntryInput,
  origin: string,
  now = new Date(),
): Promise<CreatedEntry> {
  const { kv } = deps;
  const existing = await getEntryByPayment(kv, input.stripePaymentId);
  if (existing) return { entry: existing, created: false };
  const competition = await requireCompetition(kv, input.competitionId);
  await assertPaid(deps, competition, input.stripePaymentId);
  let result: CreatedEntry;
  try {
    result = await createEntry(kv, input, now);
  } catch (err) {
    if (err instanceof ConflictError) await refundIfClosed(deps, input, now);
    throw err;
  }
  if (result.created) {
    await markCheckoutFinalised(kv, input.stripePaymentId, result.entry.teamId);
    await confirmByEmail(deps, result, competition, origin);
  }
  return result;
}

async function assertPaid(
  { kv, payments }: CheckoutDeps,
  competition: Competition,
  paymentId: string,
): Promise<void> {
  const checkout = await getPendingCheckout(kv, paymentId);
  if (checkout?.status === "REFUNDED") {
    throw new ConflictError("This payment has been refunded and cannot be used for an entry.");
  }
  const intent = await payments.retrieveIntent(paymentId);
  if (!intent) throw new PaymentRequiredError("Payment not found. Please complete the payment.");
  if (intent.status !== "succeeded") {
    throw new PaymentRequiredError("Payment has not been completed. Please complete the payment.");
  }
  if (intent.metadata.competitionId !== String(competition.id)) {
    throw new BadRequestError("This payment was made for a different competition.");
  }
  const price = entryPrice(competition);
  if (intent.amount !== price.amount || intent.currency.toLowerCase() !== price.currency) {
    throw new BadRequestError("The payment amount does not match the entry fee.");
  }
}

/**
 * After a refused entry: when the competition really is closed, full or past its deadline,
 * refunds the payment, records the refund and throws the 409 that says so. Other conflicts
 * (a busy store) are left for the caller to rethrow: the client may simply try again.
 */
async function refundIfClosed(
  { kv, payments }: CheckoutDeps,
  input: EntryInput,
  now: Date,
): Promise<void> {
  const competition = await requireCompetition(kv, input.competitionId);
  try {
    assertOpenForEntries(competition, now);
    return;
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    await payments.refund(input.stripePaymentId, err.message);
    await recordRefund(kv, input, competition, err.message, now);
    throw new ConflictError(err.message + REFUNDED_SUFFIX);
  }
}

async function recordRefund(
  kv: Deno.Kv,
  input: EntryInput,
  competition: Competition,
  reason: string,
  now: Date,
): Promise<void> {
  if (!await getPendingCheckout(kv, input.stripePaymentId)) {
    await savePendingCheckout(kv, {
      paymentIntentId: input.stripePaymentId,
      competitionId: input.competitionId,
      email: input.email,
      teamName: input.teamName,
      playerIds: input.playerIds,
      ...entryPrice(competition),
      createdAt: now.toISOString(),
    });
  }
  await markCheckoutRefunded(kv, input.stripePaymentId, reason);
}

async function assertValidPicks(
  kv: Deno.Kv,
  competition: Competition,
  playerIds: number[],
): Promise<void> {
  const [players, inCompetition] = await Promise.all([
    getPlayersByIds(kv, playerIds),
    listCompetitionPlayerIds(kv, competition.id),
  ]);
  const problems =
    players.length === playerIds.length && playerIds.every((id) => inCompetition.has(id))
      ? validateTeam(players, rulesOf(competition))
      : ["Some selected players are not part of this competition."];
  if (problems.length === 0) return;
  throw new BadRequestError(
    problems[0],
    problems.map((message) => ({ path: ["playerIds"], message })),
  );
}

async function confirmByEmail(
  { kv, mailer }: CheckoutDeps,
  { entry }: CreatedEntry,
  competition: Competition,
  origin: string,
): Promise<void> {
  try {
    const players = await withTeam(kv, await getPlayersByIds(kv, entry.playerIds));
    await sendEntryConfirmation(mailer, { entry, competition, players, origin });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    console.error(`Confirmation e-mail for entry ${entry.teamId} failed: ${reason}`);
  }
}
