/**
 * The books: every payment once with what became of it (an entry kept, refunded, pending, or
 * never paid), the amount it actually charged, and per competition and in total what was
 * collected, refunded, owed and paid in prizes and what the operator keeps. The admin Payments
 * screen, its API and `deno task reconcile` all read this one module, so their figures agree.
 */
import { listValues } from "@/lib/store/util.ts";
import { keys } from "@/lib/store/keys.ts";
import type { PendingCheckout } from "@/lib/db/checkouts.ts";
import { listCompetitions } from "@/lib/db/competitions.ts";
import { listRefunds, type Refund } from "@/lib/db/refunds.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { prizeMoney } from "./payouts.ts";
import type { PaymentProvider } from "./provider.ts";

export const PAYMENT_STATES = ["entry", "refunded", "pending", "unpaid"] as const;
export type PaymentState = typeof PAYMENT_STATES[number];

/** One payment as the admin sees it. */
export interface PaymentRow {
  paymentIntentId: string;
  competitionId: number;
  /** Null when the competition was deleted. */
  competitionName: string | null;
  teamName: string;
  email: string;
  /** What the payment charged, in minor units. */
  amount: number;
  /** Lower-case ISO code. */
  currency: string;
  state: PaymentState;
  /** The entry's team ID while it holds one (state "entry", or an entry later refunded). */
  teamId: string | null;
  /** What went back, in minor units (refunded, or a refund pending); null otherwise. */
  refundedAmount: number | null;
  refundReason: string | null;
  /** The entry a refund was made for (a cancellation or a single refund); null otherwise. */
  refundFor: string | null;
  createdAt: string;
}

/** Money by currency (lower-case ISO code → minor units). */
export type Money = Record<string, number>;

export interface ReadDeps {
  kv: Deno.Kv;
  payments: PaymentProvider;
}

/** Provider look-ups at a time when telling paid from unpaid pending checkouts. */
const PARALLEL = 8;

/** The state of a payment from its records (`paid`: the provider says it succeeded). */
function stateOf(checkout: PendingCheckout | null, refund: Refund | null, paid: boolean) {
  if (refund) return refund.status === "DONE" ? "refunded" : "pending";
  if (checkout?.status === "FINALISED") return "entry";
  if (checkout?.status === "REFUNDED") return "refunded";
  return paid ? "pending" : "unpaid";
}

/** Whether the provider says each of these payments succeeded (false when it does not know). */
async function succeeded(payments: PaymentProvider, ids: string[]): Promise<Set<string>> {
  const paid = new Set<string>();
  for (let i = 0; i < ids.length; i += PARALLEL) {
    await Promise.all(
      ids.slice(i, i + PARALLEL).map(async (id) => {
        const intent = await payments.retrieveIntent(id).catch(() => null);
        if (intent?.status === "succeeded") paid.add(id);
      }),
    );
  }
  return paid;
}

/**
 * Every payment once, with its final state: the checkouts (each payment's record, kept for good
 * once settled) joined with the refunds. A refund makes a payment "refunded" even when it paid
 * for an entry first (a cancelled competition), so it is never counted as both.
 */
export async function readPaymentBook({ kv, payments }: ReadDeps): Promise<PaymentRow[]> {
  const [checkouts, refunds, competitions] = await Promise.all([
    listValues<PendingCheckout>(kv, keys.checkouts()),
    listRefunds(kv),
    listCompetitions(kv),
  ]);
  const refundOf = new Map(refunds.map((r) => [r.paymentIntentId, r]));
  const nameOf = new Map(competitions.map((c) => [c.id, c.name]));
  const open = checkouts
    .filter((c) => c.status === "PENDING" && !refundOf.has(c.paymentIntentId))
    .map((c) => c.paymentIntentId);
  const paid = await succeeded(payments, open);
  const row = (checkout: PendingCheckout | null, refund: Refund | null): PaymentRow => {
    const source = (checkout ?? refund)!;
    const state = stateOf(checkout, refund, paid.has(source.paymentIntentId));
    return {
      paymentIntentId: source.paymentIntentId,
      competitionId: source.competitionId,
      competitionName: nameOf.get(source.competitionId) ?? null,
      teamName: checkout?.teamName ?? "",
      email: checkout?.email ?? "",
      amount: checkout?.amount ?? refund!.amount,
      currency: (checkout?.currency ?? refund!.currency).toLowerCase(),
      state,
      teamId: checkout?.teamId ?? refund?.entryTeamId ?? null,
      refundedAmount: refund ? refund.amount : null,
      refundReason: refund?.reason ?? checkout?.refundReason ?? null,
      refundFor: refund?.entryTeamId ?? null,
      createdAt: checkout?.createdAt ?? refund!.createdAt,
    };
  };
  const rows = checkouts.map((c) => row(c, refundOf.get(c.paymentIntentId) ?? null));
  const withCheckout = new Set(checkouts.map((c) => c.paymentIntentId));
  for (const refund of refunds) {
    if (!withCheckout.has(refund.paymentIntentId)) rows.push(row(null, refund));
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Listing: filters, search, sort and pages over the book.

export const PAGE_SIZE = 200;
export const SORTS = ["createdAt", "amount", "competition", "payment"] as const;
export type PaymentSort = typeof SORTS[number];

export interface PaymentQuery {
  status: PaymentState | null;
  competitionId: number | null;
  /** Matched, case-insensitively, against payment id, team ID, name, e-mail and competition. */
  search: string;
  sort: PaymentSort;
  descending: boolean;
  /** Rows skipped: the page's start. */
  offset: number;
  limit: number;
}

export interface PaymentsReport {
  /** Payments per state, within the competition and search asked for (any state). */
  counts: Record<PaymentState, number>;
  /** Amounts charged per state and currency, within the same scope as `counts`. */
  totals: Record<PaymentState, Money>;
  /** How many payments match every filter (all pages). */
  matching: number;
  payments: PaymentRow[];
  /** The cursor of the next page (`?cursor=`), null on the last. */
  next: string | null;
}

/** The state asked for in `?status=` (null: every state); a 400 for anything else. */
export function parsePaymentState(raw: string | null): PaymentState | null {
  if (raw === null || raw === "") return null;
  if ((PAYMENT_STATES as readonly string[]).includes(raw)) return raw as PaymentState;
  throw fieldError("status", `Status must be one of: ${PAYMENT_STATES.join(", ")}`);
}

/** The query of the Payments screen and API from its URL; a 400 naming the field when bad. */
export function parsePaymentQuery(params: URLSearchParams): PaymentQuery {
  const sortRaw = params.get("sort") || "createdAt";
  if (!(SORTS as readonly string[]).includes(sortRaw)) {
    throw fieldError("sort", `Sort must be one of: ${SORTS.join(", ")}`);
  }
  const dir = params.get("dir") || (sortRaw === "createdAt" ? "desc" : "asc");
  if (dir !== "asc" && dir !== "desc") throw fieldError("dir", "Direction must be asc or desc");
  const cursor = params.get("cursor") || "0";
  if (!/^\d{1,9}$/.test(cursor)) throw fieldError("cursor", "Invalid page cursor");
  const cid = params.get("competitionId") || "";
  if (cid !== "" && !/^[1-9]\d{0,9}$/.test(cid)) {
    throw fieldError("competitionId", "Competition must be a positive whole number");
  }
  const search = (params.get("q") ?? "").trim();
  if (search.length > 200) throw fieldError("q", "Search must be at most 200 characters");
  return {
    status: parsePaymentState(params.get("status")),
    competitionId: cid === "" ? null : Number(cid),
    search,
    sort: sortRaw as PaymentSort,
    descending: dir === "desc",
    offset: Number(cursor),
    limit: PAGE_SIZE,
  };
}

const natural = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

function compareRows(sort: PaymentSort): (a: PaymentRow, b: PaymentRow) => number {
  switch (sort) {
    case "amount":
      return (a, b) => a.amount - b.amount || natural.compare(a.currency, b.currency);
    case "competition":
      return (a, b) => a.competitionId - b.competitionId;
    case "payment":
      return (a, b) => natural.compare(a.paymentIntentId, b.paymentIntentId);
    case "createdAt":
      return (a, b) => a.createdAt.localeCompare(b.createdAt);
  }
}

function matches(row: PaymentRow, needle: string): boolean {
  if (needle === "") return true;
  return [row.paymentIntentId, row.teamId ?? "", row.teamName, row.email, row.competitionName ?? ""]
    .some((text) => text.toLowerCase().includes(needle));
}

function emptyStates<T>(make: () => T): Record<PaymentState, T> {
  return { entry: make(), refunded: make(), pending: make(), unpaid: make() };
}

/** Adds `amount` of `currency` to `money`. */
function add(money: Money, currency: string, amount: number): void {
  money[currency] = (money[currency] ?? 0) + amount;
}

/**
 * The payments matching `query`, a page at a time, with counts and totals per state. Sorting is
 * numeric for amounts and competitions and natural for payment ids (pi_4_2 before pi_4_10); ties
 * keep a stable order by payment id.
 */
export function queryPayments(book: PaymentRow[], query: PaymentQuery): PaymentsReport {
  const needle = query.search.toLowerCase();
  const scoped = book.filter((row) =>
    (query.competitionId === null || row.competitionId === query.competitionId) &&
    matches(row, needle)
  );
  const counts = emptyStates(() => 0);
  const totals = emptyStates<Money>(() => ({}));
  for (const row of scoped) {
    counts[row.state]++;
    add(totals[row.state], row.currency, row.amount);
  }
  const compare = compareRows(query.sort);
  const sign = query.descending ? -1 : 1;
  const listed = scoped
    .filter((row) => query.status === null || row.state === query.status)
    .sort((a, b) => sign * compare(a, b) || natural.compare(a.paymentIntentId, b.paymentIntentId));
  const end = query.offset + query.limit;
  return {
    counts,
    totals,
    matching: listed.length,
    payments: listed.slice(query.offset, end),
    next: end < listed.length ? String(end) : null,
  };
}

/** The Payments screen's and API's answer for `query`. */
export async function listPayments(deps: ReadDeps, query: PaymentQuery): Promise<PaymentsReport> {
  return queryPayments(await readPaymentBook(deps), query);
}

// ---------------------------------------------------------------------------------------------
// The ledger: money per competition and in total.

export interface LedgerLine {
  /** Null for the totals of a currency. */
  competitionId: number | null;
  name: string;
  currency: string;
  /** Money taken by every payment that succeeded (kept, refunded or still being settled). */
  collected: number;
  /** Money given back, and money whose refund is decided but not confirmed yet. */
  refunded: number;
  refundsPending: number;
  /** Charged for entries that stand (not refunded). */
  entriesKept: number;
  /** Paid, not yet settled as an entry or a refund (the sweep finishes them). */
  unsettled: number;
  /** Cash prizes won (a completed competition's awards), paid or not. */
  prizesAwarded: number;
  /** Of those, paid to the winners (recorded with a reference). */
  prizesPaid: number;
  /** prizesAwarded − prizesPaid: still to pay. */
  prizesOwed: number;
  /** The provider's fees where it reports them; null when unknown (test mode). */
  providerFees: number | null;
  /** entriesKept − prizesAwarded − providerFees: negative is an overlay the operator pays. */
  operatorKeeps: number;
}

/**
 * The ledger's columns, each with the words an accountant reads it by (the admin screen and
 * `deno task reconcile` print these).
 */
export const LEDGER_COLUMNS: {
  key: Exclude<keyof LedgerLine, "competitionId" | "name" | "currency">;
  label: string;
  meaning: string;
}[] = [
  {
    key: "collected",
    label: "Fees collected",
    meaning: "entry fees taken by payments that went through",
  },
  { key: "refunded", label: "Refunded", meaning: "fees given back to entrants" },
  {
    key: "refundsPending",
    label: "Refunds in progress",
    meaning: "refunds decided, not yet confirmed by the payment provider",
  },
  { key: "entriesKept", label: "Fees kept", meaning: "fees of entries that stand" },
  {
    key: "unsettled",
    label: "Not yet settled",
    meaning: "paid, not yet an entry or a refund (finished within a minute)",
  },
  { key: "prizesAwarded", label: "Prizes awarded", meaning: "cash prizes won, paid or not" },
  { key: "prizesPaid", label: "Prizes paid", meaning: "prizes paid to winners" },
  { key: "prizesOwed", label: "Prizes owed", meaning: "prizes awarded − prizes paid" },
  {
    key: "providerFees",
    label: "Provider fees",
    meaning: "the payment provider's fees (— where not reported)",
  },
  {
    key: "operatorKeeps",
    label: "Operator keeps",
    meaning: "fees kept − prizes awarded − provider fees (negative: prizes above the fees)",
  },
];

function emptyLine(competitionId: number | null, name: string, currency: string): LedgerLine {
  return {
    competitionId,
    name,
    currency,
    collected: 0,
    refunded: 0,
    refundsPending: 0,
    entriesKept: 0,
    unsettled: 0,
    prizesAwarded: 0,
    prizesPaid: 0,
    prizesOwed: 0,
    providerFees: null,
    operatorKeeps: 0,
  };
}

/** Adds one payment's money to a line. */
function book(line: LedgerLine, row: PaymentRow): void {
  if (row.state === "unpaid") return;
  line.collected += row.amount;
  if (row.state === "entry") line.entriesKept += row.amount;
  if (row.state === "refunded") line.refunded += row.refundedAmount ?? row.amount;
  if (row.state === "pending" && row.refundedAmount !== null) {
    line.refundsPending += row.refundedAmount;
  } else if (row.state === "pending") line.unsettled += row.amount;
}

export interface Ledger {
  competitions: LedgerLine[];
  /** One line per currency. */
  totals: LedgerLine[];
}

/**
 * The ledger of every competition with a payment or a cash prize (its payouts), and the totals
 * per currency. A refund that
 * gave back a different amount than was charged shows in `collected ≠ refunded + refundsPending +
 * entriesKept + unsettled` (`deno task reconcile` names the payment).
 */
export async function readLedger(deps: ReadDeps, rows?: PaymentRow[]): Promise<Ledger> {
  const paymentsBook = rows ?? await readPaymentBook(deps);
  const competitions = await listCompetitions(deps.kv);
  const lines = new Map<number, LedgerLine>();
  const lineOf = (cid: number, name: string, currency: string) => {
    let line = lines.get(cid);
    if (!line) {
      line = emptyLine(cid, name, currency);
      lines.set(cid, line);
    }
    return line;
  };
  for (const row of paymentsBook) {
    book(lineOf(row.competitionId, row.competitionName ?? "(deleted)", row.currency), row);
  }
  for (const c of competitions) {
    if (c.status !== "COMPLETED" || c.prizeType === "NON_CASH") continue;
    const money = await prizeMoney(deps.kv, c.id);
    if (money.awarded === 0 && money.paid === 0) continue;
    const line = lineOf(c.id, c.name, c.currency.toLowerCase());
    line.prizesAwarded += money.awarded;
    line.prizesPaid += money.paid;
    line.prizesOwed += money.awarded - money.paid;
  }
  const totals = new Map<string, LedgerLine>();
  for (const line of lines.values()) {
    line.operatorKeeps = line.entriesKept - line.prizesAwarded - (line.providerFees ?? 0);
    let total = totals.get(line.currency);
    if (!total) {
      total = emptyLine(null, `Total ${line.currency.toUpperCase()}`, line.currency);
      totals.set(line.currency, total);
    }
    for (
      const field of [
        "collected",
        "refunded",
        "refundsPending",
        "entriesKept",
        "unsettled",
        "prizesAwarded",
        "prizesPaid",
        "prizesOwed",
        "operatorKeeps",
      ] as const
    ) {
      total[field] += line[field];
    }
  }
  return {
    competitions: [...lines.values()].sort((a, b) => a.competitionId! - b.competitionId!),
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}
