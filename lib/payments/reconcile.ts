/**
 * Reconciliation: checks that the books balance to the cent and that every record agrees with
 * the others, naming each record that does not. Run by `deno task reconcile` (exit 1 when
 * anything is off) and by the tests after every money scenario.
 */
import { listCompetitions } from "@/lib/db/competitions.ts";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import { toCents } from "@/lib/domain/format.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { listPayouts, type Payout } from "@/lib/db/payout_records.ts";
import type { ProviderRecord } from "./provider.ts";
import {
  type Ledger,
  type PaymentRow,
  type ReadDeps,
  readLedger,
  readPaymentBook,
} from "./ledger.ts";

/** One record that does not agree with the books. */
export interface Discrepancy {
  /** The record: "payment pi_…", "entry FFT-…", "competition 7", "total usd". */
  record: string;
  problem: string;
}

export interface Reconciliation {
  ledger: Ledger;
  discrepancies: Discrepancy[];
  /** Payments paid or refunds decided, not settled yet (the sweep finishes them). */
  pending: number;
}

/** Extra checks a caller adds (the prize payouts check their awards). */
export type ExtraCheck = (competitions: Competition[]) => Promise<Discrepancy[]>;

const money = (cents: number, currency: string) =>
  `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/**
 * Each cash award of a completed competition has its payout of the same amount, and each paid
 * payout stands for an award of that amount.
 */
function checkPayouts(
  competition: Competition,
  entries: Entry[],
  payouts: Payout[],
  out: Discrepancy[],
): void {
  const byEntry = new Map(payouts.map((p) => [p.entryId, p]));
  const entryOf = new Map(entries.map((e) => [e.id, e]));
  for (const p of payouts) {
    const entry = entryOf.get(p.entryId);
    if (!entry || entry.teamId !== p.teamId) {
      out.push({
        record: `payout ${p.teamId}`,
        problem: "stands for an entry that does not exist",
      });
      continue;
    }
    if (competition.status !== "COMPLETED") {
      out.push({
        record: `payout ${p.teamId}`,
        problem:
          `awards a prize in ${competition.name}, which is ${competition.status}, not completed`,
      });
    } else if (p.status !== "PAID" && entry.rank !== p.rank) {
      out.push({
        record: `payout ${p.teamId}`,
        problem: `is for place ${p.rank} but the entry finished ${entry.rank ?? "unranked"}`,
      });
    }
    const award = entry && competition.status === "COMPLETED" && p.prizeType !== "NON_CASH"
      ? toCents(entry.prize ?? 0)
      : null;
    if (p.status === "PAID" && p.prizeType !== "NON_CASH" && award !== p.amount) {
      out.push({
        record: `payout ${p.teamId}`,
        problem: `paid ${money(p.amount, p.currency)} but the award is ` +
          (award === null ? "gone" : money(award, p.currency)),
      });
    }
  }
  if (competition.status !== "COMPLETED" || competition.prizeType === "NON_CASH") return;
  for (const entry of entries) {
    if (!entry.prize) continue;
    const p = byEntry.get(entry.id);
    if (!p || p.amount !== toCents(entry.prize)) {
      out.push({
        record: `entry ${entry.teamId}`,
        problem: `won ${entry.prize.toFixed(2)} but its payout ${
          p ? `says ${money(p.amount, p.currency)}` : "is missing"
        }`,
      });
    }
  }
}

/** Checks each entry of `competition` against its payment. */
function checkEntries(
  competition: Competition,
  entries: Entry[],
  payments: Map<string, PaymentRow>,
  out: Discrepancy[],
): void {
  // An entry refunded on its own no longer counts (a cancellation's entries still do).
  const playing = entries.filter((e) => !e.refundedAt).length;
  if (playing !== competition.currentEntries) {
    out.push({
      record: `competition ${competition.id}`,
      problem: `counts ${competition.currentEntries} entries but holds ${playing}`,
    });
  }
  for (const entry of entries) {
    const record = `entry ${entry.teamId}`;
    const payment = payments.get(entry.stripePaymentId);
    if (!payment) {
      out.push({ record, problem: `has no payment record (${entry.stripePaymentId})` });
      continue;
    }
    if (payment.state === "entry" && payment.teamId !== entry.teamId) {
      out.push({
        record,
        problem: `its payment ${payment.paymentIntentId} made ${payment.teamId}`,
      });
    }
    const mustBeRefunded = competition.status === "CANCELLED" || entry.refundedAt !== undefined;
    if (mustBeRefunded && payment.state === "entry") {
      out.push({
        record,
        problem: `its payment ${payment.paymentIntentId} has no refund, but ` +
          (entry.refundedAt ? "the entry was refunded" : `${competition.name} was cancelled`),
      });
    }
    if (mustBeRefunded && payment.state === "pending" && payment.refundedAmount !== null) {
      out.push({ record, problem: `its refund of ${payment.paymentIntentId} has not completed` });
    }
    if (payment.state === "refunded" && !mustBeRefunded) {
      out.push({
        record,
        problem: `its payment ${payment.paymentIntentId} was refunded but the entry still plays`,
      });
    }
    if (
      entry.amountPaid !== undefined &&
      (entry.amountPaid !== payment.amount || entry.currency !== payment.currency)
    ) {
      out.push({
        record,
        problem: `was charged ${money(entry.amountPaid, entry.currency ?? "?")} but its payment ` +
          `says ${money(payment.amount, payment.currency)}`,
      });
    }
  }
}

/**
 * Checks each payment on its own: a refund gives back what was charged, and a refund made for an
 * entry matches that entry.
 */
function checkPayments(
  book: PaymentRow[],
  entryByPayment: Map<string, Entry>,
  out: Discrepancy[],
): void {
  for (const row of book) {
    const record = `payment ${row.paymentIntentId}`;
    const entry = entryByPayment.get(row.paymentIntentId);
    if (row.refundedAmount !== null && row.refundFor && row.refundFor !== entry?.teamId) {
      out.push({
        record,
        problem: `its refund is for entry ${row.refundFor}, which ` +
          (entry ? `is not this payment's (${entry.teamId})` : "does not exist"),
      });
    }
    if (row.refundedAmount !== null && row.refundedAmount !== row.amount) {
      out.push({
        record,
        problem: `refunds ${money(row.refundedAmount, row.currency)} of ` +
          `${money(row.amount, row.currency)} charged`,
      });
    }
    if (row.state === "entry" && !entry) {
      out.push({ record, problem: `says it made entry ${row.teamId}, which does not exist` });
    }
  }
}

/** Collected = refunded + refunds pending + entries kept + unsettled, per line, to the cent. */
function checkBalances(ledger: Ledger, out: Discrepancy[]): void {
  for (const line of [...ledger.competitions, ...ledger.totals]) {
    const accounted = line.refunded + line.refundsPending + line.entriesKept + line.unsettled;
    if (accounted === line.collected) continue;
    out.push({
      record: line.competitionId === null
        ? `total ${line.currency}`
        : `competition ${line.competitionId}`,
      problem: `collected ${money(line.collected, line.currency)} but refunded + kept + pending ` +
        `come to ${money(accounted, line.currency)}`,
    });
  }
}

/**
 * Compares each payment and refund of the books with the provider's own record (Stripe's
 * PaymentIntents and Refunds, or the test provider's store), both ways: what the books say was
 * charged or given back the provider must say too, and every payment the provider took must be
 * in the books.
 */
function checkProvider(
  book: PaymentRow[],
  records: ProviderRecord[],
  mode: string,
  out: Discrepancy[],
): void {
  const recordOf = new Map(records.map((r) => [r.id, r]));
  const known = new Set(book.map((row) => row.paymentIntentId));
  for (const row of book) {
    if (row.state === "unpaid") continue;
    const record = `payment ${row.paymentIntentId}`;
    const theirs = recordOf.get(row.paymentIntentId);
    if (!theirs) {
      out.push({ record, problem: `${mode} has no record of this payment` });
      continue;
    }
    if (theirs.status !== "succeeded") {
      out.push({ record, problem: `taken here but ${mode} says it is ${theirs.status}` });
    }
    if (theirs.amount !== row.amount || theirs.currency !== row.currency) {
      out.push({
        record,
        problem: `charged ${money(row.amount, row.currency)} here but ${mode} says ` +
          money(theirs.amount, theirs.currency),
      });
    }
    // A refund decided and not yet confirmed may or may not have reached the provider.
    if (row.state === "pending" && row.refundedAmount !== null) continue;
    const ours = row.state === "refunded" ? row.refundedAmount ?? row.amount : 0;
    if (theirs.refunded !== ours) {
      out.push({
        record,
        problem: `refunded ${money(ours, row.currency)} here but ${mode} says ` +
          money(theirs.refunded, theirs.currency),
      });
    }
  }
  for (const theirs of records) {
    if (theirs.status !== "succeeded" || known.has(theirs.id)) continue;
    out.push({
      record: `payment ${theirs.id}`,
      problem: `${mode} took ${money(theirs.amount, theirs.currency)} (refunded ` +
        `${money(theirs.refunded, theirs.currency)}) but the books have no record of it`,
    });
  }
}

/**
 * Reads the books and checks them: every entry against its payment (a cancelled competition's
 * or a refunded entry's with a completed refund), every refund against what was charged and the
 * entry it was for, every payout against its award, every competition's count, and the balance
 * of each ledger line. With `provider`, also every payment and refund against the provider's own
 * records (checkProvider).
 */
export async function reconcile(
  deps: ReadDeps,
  extra: ExtraCheck[] = [],
  options: { provider?: boolean } = {},
): Promise<Reconciliation> {
  const book = await readPaymentBook(deps);
  const ledger = await readLedger(deps, book);
  const discrepancies: Discrepancy[] = [];
  const payments = new Map(book.map((row) => [row.paymentIntentId, row]));
  const entryByPayment = new Map<string, Entry>();
  const competitions = await listCompetitions(deps.kv);
  for (const competition of competitions) {
    const entries = await listEntriesByCompetition(deps.kv, competition.id);
    for (const e of entries) entryByPayment.set(e.stripePaymentId, e);
    checkEntries(competition, entries, payments, discrepancies);
    checkPayouts(competition, entries, await listPayouts(deps.kv, competition.id), discrepancies);
  }
  checkPayments(book, entryByPayment, discrepancies);
  checkBalances(ledger, discrepancies);
  for (const check of extra) discrepancies.push(...await check(competitions));
  if (options.provider) {
    checkProvider(book, await deps.payments.listRecords(), deps.payments.mode, discrepancies);
  }
  return {
    ledger,
    discrepancies,
    pending: book.filter((row) => row.state === "pending").length,
  };
}
