/**
 * The two decisions of the paid-entry path, each pure and each taken once per payment:
 * - the payment's (`decidePayment`): from its records and the provider's word, is it the entry it
 *   already made, refused (unpaid, refunded, another competition), or paid and free to become one;
 * - the entry's (`decideEntry`): at commit, from the batch's reads (the competition and its count,
 *   the picks, the payer's entries), is it made or refunded, and why.
 * The browser's request, the webhook and the recovery sweep take the first (checkout.ts); the
 * entry batch (lib/db/entry_writes.ts) takes only the second.
 */
import { closedReason } from "@/lib/domain/competition.ts";
import { DISPLAY_NAME_TAKEN } from "@/lib/domain/display_name.ts";
import { toCents } from "@/lib/domain/format.ts";
import { type PlayFacts, playProblem } from "@/lib/domain/limits.ts";
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

/** A payment intent's state at the provider (Stripe's names; the test provider uses the same). */
export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "succeeded"
  | "canceled";

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

/** What the store and the provider know of a payment: the payment's decision reads only these. */
export interface PaymentFacts {
  competitionId: number;
  /** The entry this payment already made. */
  entry: Entry | null;
  refund: RefundFacts | null;
  /** The payment's checkout was marked refunded. */
  checkoutRefunded: boolean;
  /** The provider's view of the payment; null when it does not know it. */
  intent: IntentFacts | null;
}

/** What the entry's decision reads, at commit: the competition with the batch's count. */
export interface EntryFacts {
  /** What the payer was charged. */
  charge: Charge;
  /** The competition, with the entries already counted in the current batch; null when gone. */
  competition: Competition | null;
  picks: PickFacts;
  person: PersonFacts;
  /** Another entry of the competition holds this display name (or a look-alike of it). */
  nameTaken: boolean;
  /** The payer's limits, break, exclusion and recent spend (absent: no rules of their own). */
  play?: PlayFacts;
  now: Date;
}

/** Why a payment is refused without a refund; each maps to its own HTTP status. */
export type Refusal =
  | { reason: "refunded"; message: string }
  | { reason: "not_paid"; message: string }
  | { reason: "other_competition"; message: string };

/** What the payment's records alone decide: its entry, or a refusal. */
export type RecordDecision =
  /** The payment already made this entry: return it (idempotent repeat). */
  | { kind: "existing"; entry: Entry }
  /** Refused; `finishRefund` when a refund decided earlier is still to be carried out. */
  | { kind: "reject"; refusal: Refusal; finishRefund: boolean };

export type PaymentDecision =
  | RecordDecision
  /** The provider refunded it outside the app: record that, then refuse. */
  | { kind: "record_outside_refund"; charge: Charge }
  /** Paid and free to become an entry: the entry's decision (at commit) says whether it does. */
  | { kind: "paid"; charge: Charge };

export type EntryDecision =
  /** It can never become an entry: refund it once, for `reason` (told to the payer). */
  | { kind: "refund"; reason: string; cause: RefundCause; problems?: string[] }
  /** Make the entry in `competition` (as read at commit). */
  | { kind: "create"; competition: Competition };

/** Why a payment can never become an entry. */
export type RefundCause =
  | "gone"
  | "fee_changed"
  | "closed"
  | "picks"
  | "person_limit"
  | "play_limit"
  | "name_taken";

const refused = (refusal: Refusal, finishRefund = false): RecordDecision => ({
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
 * What the payment's records settle without asking the provider: the entry it already made
 * (answered first, so a retry is never refused because that entry filled the competition), or
 * a refusal of a refunded payment; null when the provider must be asked.
 */
export function decideOnRecord(
  facts: Omit<PaymentFacts, "intent">,
): RecordDecision | null {
  const { entry } = facts;
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
  return null;
}

/**
 * The payment's decision: what its records settle (see `decideOnRecord`), else what the
 * provider says (`intent`; null when it does not know the payment). A refunded payment never
 * becomes an entry, and nothing is refunded before the provider confirmed the money was taken.
 * @example decidePayment({ competitionId: 1, entry: null, refund: null, checkoutRefunded: false, intent }) // { kind: "paid", charge }
 */
export function decidePayment(facts: PaymentFacts): PaymentDecision {
  const onRecord = decideOnRecord(facts);
  if (onRecord) return onRecord;
  const { intent } = facts;
  if (!intent) return refused({ reason: "not_paid", message: PAYMENT_NOT_FOUND });
  if (intent.status !== "succeeded") {
    return refused({ reason: "not_paid", message: PAYMENT_NOT_COMPLETED });
  }
  if (intent.competitionId !== String(facts.competitionId)) {
    return refused({ reason: "other_competition", message: OTHER_COMPETITION_PAYMENT });
  }
  const charge = { amount: intent.amount, currency: intent.currency.toLowerCase() };
  if (intent.refunded) return { kind: "record_outside_refund", charge };
  return { kind: "paid", charge };
}

/**
 * The entry's decision, taken once at commit against the batch's reads: the competition still
 * there, at the fee charged, open (its count including the batch's entries), the picks a valid
 * team of it, and the payer within their limit; otherwise the refund's cause.
 * @example decideEntry({ charge, competition, picks, person, now }) // { kind: "create", competition }
 */
export function decideEntry(facts: EntryFacts): EntryDecision {
  const { competition, charge } = facts;
  const refund = (cause: RefundCause, reason: string, problems?: string[]): EntryDecision => ({
    kind: "refund",
    cause,
    reason,
    problems,
  });
  if (!competition) return refund("gone", COMPETITION_GONE);
  const price = priceOf(competition);
  if (price.amount !== charge.amount || price.currency !== charge.currency) {
    return refund("fee_changed", FEE_CHANGED);
  }
  const closed = closedReason(competition, facts.now);
  if (closed) return refund("closed", closed);
  const problems = picksProblems(competition, facts.picks);
  if (problems.length > 0) return refund("picks", problems[0], problems);
  const personal = personProblem(competition, facts.person);
  if (personal) return refund("person_limit", personal);
  const playing = facts.play && playProblem(facts.play, charge.amount, charge.currency, facts.now);
  if (playing) return refund("play_limit", playing.message);
  if (facts.nameTaken) return refund("name_taken", DISPLAY_NAME_TAKEN);
  return { kind: "create", competition };
}

/** The domains whose mailboxes ignore dots in the name (and are one mailbox service). */
const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * Who an entrant is, for the per-person limits: the e-mail address as its mailbox receives it,
 * trimmed and case-folded, without its +tag, and for Gmail without the dots of its name (so
 * `Solo+2@example.com` is `solo@example.com`, `j.ane@googlemail.com` is `jane@gmail.com`).
 * @example personOf(" J.Ane+cup@GoogleMail.com") // "jane@gmail.com"
 */
export function personOf(email: string): string {
  const address = email.trim().normalize("NFKC").toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 1) return address;
  let name = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = name.indexOf("+");
  if (plus > 0) name = name.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    name = name.replaceAll(".", "") || name;
    domain = "gmail.com";
  }
  return `${name}@${domain}`;
}

/** A team as a text that does not depend on the order of the picks: "3,8,12,40,41". */
export function picksSignature(playerIds: readonly number[]): string {
  return [...playerIds].sort((a, b) => a - b).join(",");
}
