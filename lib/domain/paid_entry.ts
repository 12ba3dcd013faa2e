/**
 * The one decision of the paid-entry path: given what the store and the payment provider know of
 * a payment, does it return the entry it already made, make one now, get refunded, or get
 * refused? Pure: the browser's request, the webhook, the recovery sweep and the batch commit all
 * ask this function with the facts they read, so every path settles a payment the same way.
 */
import { closedReason } from "@/lib/domain/competition.ts";
import { toCents } from "@/lib/domain/format.ts";
import { rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import type { Competition, Entry, Player } from "@/lib/domain/types.ts";

/** Why a refunded payment cannot make an entry. */
export const PAYMENT_REFUNDED = "This payment has been refunded and cannot be used for an entry.";
/** Why a payment for one competition cannot make an entry in another. */
export const OTHER_COMPETITION_PAYMENT = "This payment was made for a different competition.";
export const PAYMENT_NOT_FOUND = "Payment not found. Please complete the payment.";
export const PAYMENT_NOT_COMPLETED = "Payment has not been completed. Please complete the payment.";
export const FEE_CHANGED = "The entry fee has changed since this payment was made.";
export const COMPETITION_GONE = "This competition no longer exists.";
export const NOT_IN_COMPETITION = "Some selected players are not part of this competition.";
export const PERSON_LIMIT_REACHED = "You have reached the entry limit for this competition.";
export const SAME_TEAM_AGAIN = "You already entered this exact team in this competition.";

/** What was actually charged: minor units and the lower-case ISO currency. */
export interface Charge {
  amount: number;
  currency: string;
}

/** The payment as the provider reports it. */
export interface IntentFacts extends Charge {
  status: string;
  /** The competition the payment was opened for (from the intent's metadata). */
  competitionId: string | undefined;
  /** Any of it was refunded, by the app or by hand at the provider. */
  refunded: boolean;
}

/** A refund decided for the payment (it never makes an entry then). */
export interface RefundFacts {
  status: "PENDING" | "DONE";
}

/** A pick as the store holds it: the player at the competition's salary, and its link. */
export interface PickFacts {
  players: (Player | null)[];
  linked: boolean[];
}

/** How many entries the payer already holds in the competition, and whether one is this team. */
export interface PersonFacts {
  entries: number;
  sameTeam: boolean;
}

/** Everything the decision reads. `intent` undefined: the provider has not been asked yet. */
export interface PaymentFacts {
  competitionId: number;
  /** The entry this payment already made. */
  entry: Entry | null;
  refund: RefundFacts | null;
  /** The payment's checkout was marked refunded. */
  checkoutRefunded: boolean;
  intent?: IntentFacts | null;
  /** The competition, with the entries already counted in the current batch. */
  competition: Competition | null;
  /** Absent: the picks were not read (decided again by the commit, which reads them). */
  picks?: PickFacts;
  person?: PersonFacts;
  now: Date;
}

/** Why a payment is refused without a refund; each maps to its own HTTP status. */
export type Refusal =
  | { reason: "refunded"; message: string }
  | { reason: "not_paid"; message: string }
  | { reason: "other_competition"; message: string };

export type PaymentDecision =
  /** The payment already made this entry: return it (idempotent repeat). */
  | { kind: "existing"; entry: Entry }
  /** The provider must be asked about the payment before anything else is decided. */
  | { kind: "verify" }
  /** The provider refunded it outside the app: record that, then refuse. */
  | { kind: "record_outside_refund"; charge: Charge }
  /** Refused; `finishRefund` when a refund decided earlier is still to be carried out. */
  | { kind: "reject"; refusal: Refusal; finishRefund: boolean }
  /** It can never become an entry: refund it once, for `reason` (told to the payer). */
  | { kind: "refund"; reason: string; cause: RefundCause; problems?: string[]; charge: Charge }
  /** Make the entry; `charge` is what the payer was charged, kept on the entry. */
  | { kind: "create"; charge: Charge; competition: Competition };

/** Why a payment can never become an entry. */
export type RefundCause = "gone" | "fee_changed" | "closed" | "picks" | "person_limit";

const refused = (refusal: Refusal, finishRefund = false): PaymentDecision => ({
  kind: "reject",
  refusal,
  finishRefund,
});

/** The entry fee of a competition as a charge. */
export function priceOf(competition: Pick<Competition, "entryFee" | "currency">): Charge {
  return { amount: toCents(competition.entryFee), currency: competition.currency.toLowerCase() };
}

/** The problems of the picks in this competition (empty when they make a valid team). */
export function picksProblems(competition: Competition, picks: PickFacts): string[] {
  if (picks.players.some((p) => p === null) || picks.linked.some((l) => !l)) {
    return [NOT_IN_COMPETITION];
  }
  return validateTeam(picks.players as Player[], rulesOf(competition));
}

/** How many entries one person may hold in a competition (1 unless the admin raised it). */
export function entriesPerPerson(competition: Pick<Competition, "maxEntriesPerPerson">): number {
  return competition.maxEntriesPerPerson ?? 1;
}

/** Why this person may not add this team to the competition, or null. */
export function personProblem(competition: Competition, person: PersonFacts): string | null {
  if (person.sameTeam) return SAME_TEAM_AGAIN;
  if (person.entries >= entriesPerPerson(competition)) return PERSON_LIMIT_REACHED;
  return null;
}

/**
 * Decides what becomes of a payment. The order matters: a payment that already made its entry
 * is answered first (so a retry is never refused because that entry filled the competition),
 * a refunded one is never turned into an entry, and nothing is refunded before the provider
 * confirmed the money was taken.
 * @example decidePayment({ competitionId: 1, entry: null, refund: null, checkoutRefunded: false, competition, now }) // { kind: "verify" }
 */
export function decidePayment(facts: PaymentFacts): PaymentDecision {
  const { entry, intent, competition } = facts;
  if (entry) {
    if (entry.competitionId === facts.competitionId) return { kind: "existing", entry };
    return refused({ reason: "other_competition", message: OTHER_COMPETITION_PAYMENT });
  }
  if (facts.refund || facts.checkoutRefunded) {
    return refused(
      { reason: "refunded", message: PAYMENT_REFUNDED },
      facts.refund?.status === "PENDING",
    );
  }
  if (intent === undefined) return { kind: "verify" };
  if (!intent) return refused({ reason: "not_paid", message: PAYMENT_NOT_FOUND });
  if (intent.status !== "succeeded") {
    return refused({ reason: "not_paid", message: PAYMENT_NOT_COMPLETED });
  }
  if (intent.competitionId !== String(facts.competitionId)) {
    return refused({ reason: "other_competition", message: OTHER_COMPETITION_PAYMENT });
  }
  const charge = { amount: intent.amount, currency: intent.currency.toLowerCase() };
  if (intent.refunded) return { kind: "record_outside_refund", charge };
  const refund = (cause: RefundCause, reason: string, problems?: string[]): PaymentDecision => ({
    kind: "refund",
    cause,
    reason,
    problems,
    charge,
  });
  if (!competition) return refund("gone", COMPETITION_GONE);
  const price = priceOf(competition);
  if (price.amount !== charge.amount || price.currency !== charge.currency) {
    return refund("fee_changed", FEE_CHANGED);
  }
  const closed = closedReason(competition, facts.now);
  if (closed) return refund("closed", closed);
  if (facts.picks) {
    const problems = picksProblems(competition, facts.picks);
    if (problems.length > 0) return refund("picks", problems[0], problems);
  }
  const personal = facts.person ? personProblem(competition, facts.person) : null;
  if (personal) return refund("person_limit", personal);
  return { kind: "create", charge, competition };
}

/** Who an entrant is, for the per-person limit: the e-mail, trimmed and lower case. */
export function personOf(email: string): string {
  return email.trim().toLowerCase();
}

/** A team as a text that does not depend on the order of the picks: "3,8,12,40,41". */
export function picksSignature(playerIds: readonly number[]): string {
  return [...playerIds].sort((a, b) => a - b).join(",");
}
