/**
 * The paid-entry flow: open a payment for an open competition, then settle a payment: a
 * succeeded payment becomes exactly one entry, or is refunded exactly once when it can never
 * become one. The browser, the webhook and the recovery sweep all call `settlePayment`, which
 * takes the payment's decision once (`decidePayment`, lib/domain/paid_entry.ts: its records and
 * the provider's view of it) and hands a paid payment to the entry batch, which takes the entry's
 * decision (`decideEntry`) against what it reads at commit. Outcomes are values; only a refusal
 * of the request (unpaid, wrong competition) or a provider failure is thrown.
 */
import { assertCaptaincy, captaincyOf } from "@/lib/domain/captain.ts";
import { entryPlayers, type PlayerWithTeam, withTeam } from "@/lib/db/players.ts";
import {
  checkoutMutations,
  getPendingCheckout,
  markCheckoutRefunded,
  newCheckout,
  type PendingCheckout,
  savePendingCheckout,
} from "@/lib/db/checkouts.ts";
import { checkIntentLimits, countIntent, type IntentLimits } from "./intent_limit.ts";
import {
  assertOpenForEntries,
  assertValidPicks,
  competitionWithPicks,
  type CreatedEntry,
  displayNameTaken,
  type EntryInput,
  getEntry,
  personStanding,
} from "@/lib/db/entries.ts";
import { DISPLAY_NAME_TAKEN } from "@/lib/domain/display_name.ts";
import { commitEntry, readEntryKeys } from "@/lib/db/entry_writes.ts";
import { assertMayPlay } from "@/lib/db/persons.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { keyText } from "@/lib/store/group_commit.ts";
import { claimRefund, markRefundDone, type Refund } from "@/lib/db/refunds.ts";
import {
  type Charge,
  decideOnRecord,
  decidePayment,
  entriesPerPerson,
  type IntentFacts,
  OTHER_COMPETITION_PAYMENT,
  PAYMENT_REFUNDED,
  personProblem,
  priceOf,
  type RecordDecision,
  type Refusal,
} from "@/lib/domain/paid_entry.ts";
import type { PaymentIntentInput } from "@/lib/domain/schemas/public.ts";
import type { Competition, Entry, OpenedPayment, Player } from "@/lib/domain/types.ts";
import { buildEntryConfirmation, sendEntryConfirmation } from "@/lib/email/confirmation.ts";
import { deliverOutboxMessage, mailerDelivers } from "@/lib/db/outbox.ts";
import type { Mailer, MailMessage } from "@/lib/email/mailer.ts";
import {
  ConflictError,
  type DomainError,
  fieldError,
  PaymentNotCompletedError,
  UpstreamError,
} from "@/lib/domain/errors.ts";
import type { PaymentIntentInfo, PaymentProvider } from "./provider.ts";

const REFUNDED_SUFFIX = " Your payment has been refunded.";
const REFUNDED_AT_PROVIDER = "Refunded at the payment provider.";
const REFUND_FAILED =
  "Your payment could not be refunded automatically. Please try again in a moment or contact support.";

export interface CheckoutDeps {
  kv: Deno.Kv;
  payments: PaymentProvider;
  mailer: Mailer;
  /** Where reads that may lag a moment go (a nearby replica); defaults to `kv`. */
  readKv?: Deno.Kv;
}

/** How `openPayment` reads and counts, besides the store it writes to. */
export interface OpenOptions {
  now?: Date;
  /** The limits the intent counts against (lib/payments/intent_limit.ts); none by default. */
  limits?: IntentLimits;
  /**
   * The store for the checks before the payment (the competition, the picks, the payer's
   * entries, the limits): eventual reads from a nearby replica will do, since the entry's
   * commit decides all of them again. Defaults to `kv`.
   */
  readKv?: Deno.Kv;
}

/**
 * Creates a payment intent for the entry fee of an open competition (404 unknown; 409 closed,
 * past the deadline or full; 429 past a limit). With the picks, e-mail and name, the team is
 * checked first and kept as a pending checkout so the webhook can finish the entry if the
 * browser never comes back; the checkout and the limits' count are one write after the
 * provider's intent.
 */
export async function openPayment(
  { kv, payments }: Pick<CheckoutDeps, "kv" | "payments">,
  input: PaymentIntentInput,
  options: OpenOptions = {},
): Promise<OpenedPayment> {
  const now = options.now ?? new Date();
  const readKv = options.readKv ?? kv;
  const plan = options.limits ?? { limits: [], ceilings: [] };
  const [picked, person, hits, nameTaken] = await Promise.all([
    competitionWithPicks(readKv, input.competitionId, input.playerIds).catch((err) =>
      // A competition just made may not have reached the replica yet: ask the primary.
      readKv === kv
        ? Promise.reject(err)
        : competitionWithPicks(kv, input.competitionId, input.playerIds)
    ),
    input.email ? personStanding(readKv, input.competitionId, input.email, input.playerIds) : null,
    checkIntentLimits(kv, plan),
    input.teamName ? displayNameTaken(readKv, input.competitionId, input.teamName) : false,
  ]);
  const { competition, players, linked } = picked;
  assertOpenForEntries(competition, now);
  if (input.playerIds) {
    assertValidPicks(competition, players, linked);
    assertCaptaincy(competition, input.playerIds, input);
  }
  const personal = person && personProblem(competition, person);
  if (personal) throw new ConflictError(personal);
  if (input.email) await assertMayPlay(readKv, input.email, priceOf(competition), now);
  if (nameTaken) {
    throw new ConflictError(DISPLAY_NAME_TAKEN, [{
      path: ["teamName"],
      message: DISPLAY_NAME_TAKEN,
    }]);
  }
  const { amount, currency } = priceOf(competition);
  const intent = await payments.createIntent({
    amount,
    currency,
    metadata: { competitionId: String(competition.id) },
  });
  const checkout = input.playerIds && input.email && input.teamName
    ? newCheckout({
      paymentIntentId: intent.id,
      competitionId: competition.id,
      email: input.email,
      teamName: input.teamName,
      playerIds: input.playerIds,
      ...captaincyOf(input),
      amount,
      currency,
      createdAt: now.toISOString(),
    })
    : null;
  await countIntent(kv, plan, hits, checkout ? checkoutMutations(checkout) : []);
  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    applePayAvailable: payments.mode === "stripe",
    mode: payments.mode,
    publishableKey: payments.publishableKey,
    amount,
    currency,
    entriesAllowed: entriesPerPerson(competition),
  };
}

/** How a payment ended. */
export type Settlement =
  | { kind: "entry"; created: boolean; entry: Entry; players?: CreatedEntry["players"] }
  /** Refunded (now or before); `message` says why, as the payer is told. */
  | { kind: "refunded"; message: string };

/** The error a refused request gets. */
function refusalError(refusal: Refusal): DomainError {
  switch (refusal.reason) {
    case "refunded":
      return new ConflictError(refusal.message);
    case "not_paid":
      return new PaymentNotCompletedError(refusal.message);
    case "other_competition":
      return fieldError("stripePaymentId", refusal.message);
  }
}

/** The provider's view of a payment, as the decision reads it (null: unknown to it). */
async function askProvider(deps: CheckoutDeps, id: string): Promise<IntentFacts | null> {
  const intent = await deps.payments.retrieveIntent(id);
  return intent && intentFacts(intent);
}

function intentFacts(intent: PaymentIntentInfo): IntentFacts {
  return {
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    competitionId: intent.metadata.competitionId,
    refunded: intent.refunded === true,
  };
}

/**
 * Settles a payment for the entry `input` describes: the entry it made (`created: false` on a
 * repeat), a new entry, or a refund once it can never become one (closed, full, gone, fee
 * changed, picks breaking the rules, the payer's limit reached). Throws PaymentNotCompletedError
 * (402) for an unpaid payment, InvalidInputError (400) for a payment of another competition or a
 * malformed id, and UpstreamError (502) while the provider fails a refund (a retry finishes it).
 */
export async function settlePayment(
  deps: CheckoutDeps,
  input: EntryInput,
  origin: string,
  now = new Date(),
): Promise<Settlement> {
  const { kv } = deps;
  if (!isKeyText(input.stripePaymentId)) {
    throw fieldError("stripePaymentId", "Invalid payment id");
  }
  // The provider is asked at the same time as the store (one round trip instead of two); its
  // answer is waited for only when the payment's records leave it open. The store's wave reads
  // every key the entry's commit decides on, so the batch's first try reads nothing again.
  const asked = askProvider(deps, input.stripePaymentId);
  asked.catch(() => {});
  const read = await readEntryKeys(kv, input);
  const value = <T>(key: Deno.KvKey) => (read.get(keyText(key))?.value ?? null) as T | null;
  const entryId = value<number>(keys.entryByPayment(input.stripePaymentId));
  const refund = value<Refund>(keys.refund(input.stripePaymentId));
  const checkout = value<PendingCheckout>(keys.checkout(input.stripePaymentId));
  const onRecord = {
    competitionId: input.competitionId,
    entry: entryId === null ? null : await getEntry(kv, entryId),
    refund,
    checkoutRefunded: checkout?.status === "REFUNDED",
  };
  const settled = decideOnRecord(onRecord);
  if (settled) return await answerOnRecord(deps, input, settled, refund, now);
  // The confirmation e-mail names the picks' clubs: read (from a replica) while the provider answers.
  const picks = input.playerIds.map((id) => value<Player>(keys.player(id)));
  const clubs = picks.every((p) => p !== null)
    ? withTeam(deps.readKv ?? kv, picks as Player[]).catch(() => null)
    : Promise.resolve(null);
  const payment = decidePayment({ ...onRecord, intent: await asked });
  switch (payment.kind) {
    case "existing":
    case "reject":
      return await answerOnRecord(deps, input, payment, refund, now);
    case "record_outside_refund":
      await recordOutsideRefund(deps, input, payment.charge, now);
      return { kind: "refunded", message: PAYMENT_REFUNDED };
  }
  const withClubs = await clubs;
  const stage = deps.mailer.stage?.bind(deps.mailer);
  // The confirmation is written in the entry's own commit (the outbox; with SMTP also marked for
  // delivery, sent just below and retried by the outbox job): never lost, never sent twice.
  let staged: number | null = null;
  const notice = stage && withClubs
    ? (made: { entry: Entry; players: Player[]; competition: Competition }) => {
      const write = stage(confirmationOf(made, withClubs, origin));
      staged = write.id ?? null;
      return write;
    }
    : undefined;
  const outcome = await commitEntry(kv, { ...input, charge: payment.charge }, now, {
    read,
    notice,
  });
  switch (outcome.kind) {
    case "created":
      if (!notice) {
        await confirmByEmail(deps, outcome.entry, outcome.players, outcome.competition, origin);
      } else if (staged !== null && mailerDelivers(deps.mailer)) {
        await deliverOutboxMessage(kv, deps.mailer, staged).catch((err) =>
          console.error(`Confirmation e-mail for entry ${outcome.entry.teamId} waits: ${err}`)
        );
      }
      return { kind: "entry", created: true, entry: outcome.entry, players: outcome.players };
    case "refund":
      return await refundPayment(deps, input, payment.charge, outcome.reason, now);
    case "settled": {
      // Another request settled the payment while this one waited: answer from its records.
      const entry = outcome.entryId === null ? null : await getEntry(kv, outcome.entryId);
      const { refund, checkoutRefunded } = outcome;
      // (An entry index left without its entry, never written so, is answered as refunded.)
      const settled = decideOnRecord({ ...onRecord, entry, refund, checkoutRefunded }) ??
        decideOnRecord({ ...onRecord, checkoutRefunded: true })!;
      return await answerOnRecord(deps, input, settled, refund, now);
    }
  }
}

/** The confirmation e-mail of an entry just made, its picks named with their clubs. */
function confirmationOf(
  made: { entry: Entry; players: Player[]; competition: Competition },
  clubs: PlayerWithTeam[],
  origin: string,
): MailMessage {
  const teamOf = new Map(clubs.map((p) => [p.id, p.team]));
  const players = made.players.map((p) => ({ ...p, team: teamOf.get(p.id) ?? null }));
  return buildEntryConfirmation({ ...made, players, origin });
}

/**
 * The answer a payment's records give: the entry it made, or its refusal (a refund decided
 * earlier and still pending, `refund`, is finished first).
 */
async function answerOnRecord(
  deps: CheckoutDeps,
  input: EntryInput,
  decision: RecordDecision,
  refund: Refund | null,
  now: Date,
): Promise<Settlement> {
  if (decision.kind === "existing") return { kind: "entry", created: false, entry: decision.entry };
  if (decision.finishRefund && refund) await completeRefund(deps, refund, input, now);
  if (decision.refusal.reason === "refunded") {
    return { kind: "refunded", message: decision.refusal.message };
  }
  throw refusalError(decision.refusal);
}

/**
 * The browser's entry request: the entry of a settled payment, or a 409 saying why the payment
 * was refunded instead. See `settlePayment` for what else is refused.
 */
export async function finaliseEntry(
  deps: CheckoutDeps,
  input: EntryInput,
  origin: string,
  now = new Date(),
): Promise<CreatedEntry> {
  const settled = await settlePayment(deps, input, origin, now);
  if (settled.kind === "refunded") throw new ConflictError(settled.message);
  return { entry: settled.entry, created: settled.created, players: settled.players };
}

/**
 * Refunds a payment that cannot become an entry. The refund is claimed first, atomically with a
 * check that the payment made no entry: if a concurrent request (browser or webhook) just made
 * one, that entry is returned and nothing is refunded.
 */
async function refundPayment(
  deps: CheckoutDeps,
  input: EntryInput,
  charge: Charge,
  reason: string,
  now: Date,
): Promise<Settlement> {
  const claim = await claimRefund(deps.kv, {
    paymentIntentId: input.stripePaymentId,
    competitionId: input.competitionId,
    reason,
    ...charge,
  }, now);
  if ("entry" in claim) {
    if (claim.entry.competitionId !== input.competitionId) {
      throw refusalError({ reason: "other_competition", message: OTHER_COMPETITION_PAYMENT });
    }
    return { kind: "entry", created: false, entry: claim.entry };
  }
  await completeRefund(deps, claim.refund, input, now);
  return { kind: "refunded", message: claim.refund.reason + REFUNDED_SUFFIX };
}

/**
 * Asks the provider for a claimed refund that is still pending and records it done. When the
 * provider fails, the claim stays PENDING (so the payment still never makes an entry) and the
 * next attempt, by the browser, a redelivered webhook or the sweep, asks again: 502 meanwhile.
 */
async function completeRefund(
  deps: CheckoutDeps,
  refund: Refund,
  input: Pick<EntryInput, "stripePaymentId" | "competitionId" | "email" | "teamName" | "playerIds">,
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
 * down): asks the provider again and records it done (UpstreamError while it still fails).
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
  charge: Charge,
  now: Date,
): Promise<void> {
  const claim = await claimRefund(deps.kv, {
    paymentIntentId: input.stripePaymentId,
    competitionId: input.competitionId,
    reason: REFUNDED_AT_PROVIDER,
    ...charge,
  }, now);
  if (!("refund" in claim) || claim.refund.status === "DONE") return;
  const refund = await markRefundDone(deps.kv, input.stripePaymentId, now);
  await recordCheckoutRefund(deps.kv, input, refund, now);
}

/** The checkout of a refunded payment says so (created for the record when there was none). */
async function recordCheckoutRefund(
  kv: Deno.Kv,
  input: Pick<EntryInput, "stripePaymentId" | "competitionId" | "email" | "teamName" | "playerIds">,
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
  entry: Entry,
  picks: CreatedEntry["players"],
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
