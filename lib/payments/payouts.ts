/**
 * Telling winners and paying them: each winner is e-mailed a private claim link once; the claim
 * page takes their payout details (PayPal e-mail or IBAN for cash, a postal address for a
 * non-cash prize), sealed at rest; admins list payouts with the details opened, record payments
 * exactly once, and export them as CSV.
 */
import type { AuditStamp } from "@/lib/db/audit.ts";
import { keys } from "@/lib/store/keys.ts";
import { deliverOutbox, mailerDelivers } from "@/lib/db/outbox.ts";
import {
  detailsContext,
  getPayout,
  getPayoutByTokenHash,
  listPayouts,
  markPayoutClaimed,
  markPayoutPaid,
  type Payout,
  PAYOUT_STATES,
  type PayoutState,
  payoutState,
  recordReminder,
  recordWinnerNotice,
} from "@/lib/db/payout_records.ts";
import {
  newSealKey,
  randomToken,
  seal,
  sealKeyFromBase64,
  sha256Hex,
  unseal,
} from "@/lib/crypto/sealed.ts";
import { toCsv } from "@/lib/domain/csv.ts";
import { fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import type { PayoutDetails } from "@/lib/domain/schemas/payouts.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import {
  buildClaimConfirmation,
  buildClaimReminder,
  buildPayoutSentNotice,
  buildWinnerNotice,
} from "@/lib/email/winner.ts";
import { getEntryByEditToken } from "@/lib/db/entry_edits.ts";
import { maskEmail } from "@/lib/domain/format.ts";
import type { Mailer } from "@/lib/email/mailer.ts";

export interface PayoutDeps {
  kv: Deno.Kv;
  mailer: Mailer;
  config?: { payoutKey?: string | null };
  /** The sealing key once found: the isolate's `Services.payoutSealKey`. */
  payoutSealKey: SealKeyMemo;
}

/** Where an isolate keeps the payout sealing key it found (null until the first seal or open). */
export interface SealKeyMemo {
  key: Promise<CryptoKey> | null;
}

/** Tokens of claim links look like this (22 URL-safe characters: 128 random bits). */
const TOKEN = /^[A-Za-z0-9_-]{22}$/;
/** An entry's edit token (lib/db/entry_writes.ts): 32 hex digits. */
const EDIT_TOKEN = /^[0-9a-f]{32}$/;

/**
 * The key payout details are sealed with: PAYOUT_ENCRYPTION_KEY, else one generated once and
 * kept in the store (so a dump without the environment still needs the store's own secret).
 */
function sealKey(deps: PayoutDeps): Promise<CryptoKey> {
  if (deps.config?.payoutKey) return sealKeyFromBase64(deps.config.payoutKey);
  let key = deps.payoutSealKey.key;
  if (!key) {
    key = (async () => {
      const k = keys.secret("payout_key");
      const stored = await deps.kv.get<string>(k);
      if (stored.value) return sealKeyFromBase64(stored.value);
      const fresh = newSealKey();
      const res = await deps.kv.atomic().check(stored).set(k, fresh).commit();
      const value = res.ok ? fresh : (await deps.kv.get<string>(k)).value!;
      return sealKeyFromBase64(value);
    })();
    deps.payoutSealKey.key = key;
  }
  return key;
}

/**
 * Tells every winner not told yet (of one competition, or all) their new private claim link: the
 * e-mail is written to the outbox in the atomic that records them told, then handed to SMTP
 * (retried by the sweep). Returns how many were told.
 */
export async function notifyWinners(
  deps: PayoutDeps,
  origin: string,
  cid?: number,
  now = new Date(),
): Promise<number> {
  const waiting = (await listPayouts(deps.kv, cid)).filter((p) => !p.notifiedAt);
  const names = new Map<number, string>();
  let told = 0;
  for (const payout of waiting) {
    if (!names.has(payout.competitionId)) {
      const c = (await deps.kv.get<Competition>(keys.competition(payout.competitionId))).value;
      names.set(payout.competitionId, c?.name ?? "the competition");
    }
    const token = randomToken();
    const mail = buildWinnerNotice({
      to: payout.email,
      teamName: payout.teamName,
      teamId: payout.teamId,
      competitionName: names.get(payout.competitionId)!,
      place: payout.place,
      amount: payout.amount,
      currency: payout.currency,
      description: payout.description,
      claimUrl: `${origin}/claim/${token}`,
    });
    const options = { deliver: mailerDelivers(deps.mailer), now };
    if (await recordWinnerNotice(deps.kv, payout, await sha256Hex(token), mail, options)) told++;
  }
  if (told > 0) await deliverOutbox(deps.kv, deps.mailer);
  return told;
}

/**
 * Records that a prize was paid with its reference, exactly once (see markPayoutPaid), and tells
 * the winner in the same atomic.
 */
export async function recordPayoutPaid(
  deps: PayoutDeps,
  cid: number,
  entryId: number,
  reference: string,
  now = new Date(),
  audit?: AuditStamp,
): Promise<Payout> {
  const competition = (await deps.kv.get<Competition>(keys.competition(cid))).value;
  const paid = await markPayoutPaid(deps.kv, cid, entryId, reference, now, {
    deliver: mailerDelivers(deps.mailer),
    mail: (p) =>
      buildPayoutSentNotice({
        to: p.email,
        teamName: p.teamName,
        teamId: p.teamId,
        competitionName: competition?.name ?? "the competition",
        place: p.place,
        amount: p.amount,
        currency: p.currency,
        description: p.description,
        reference,
      }),
  }, audit);
  await deliverOutbox(deps.kv, deps.mailer).catch((err) =>
    console.error(`Payout e-mail waits in the outbox: ${err}`)
  );
  return paid;
}

/**
 * The payout a claim link opens: the token e-mailed to the winner, or the entry's own edit token
 * (the link My entries and the find-my-entries e-mail give). NotFoundError for anything else.
 */
export async function payoutOfToken(kv: Deno.Kv, token: string): Promise<Payout> {
  let payout: Payout | null = null;
  if (TOKEN.test(token)) payout = await getPayoutByTokenHash(kv, await sha256Hex(token));
  else if (EDIT_TOKEN.test(token)) {
    const entry = await getEntryByEditToken(kv, token);
    if (entry) payout = await getPayout(kv, entry.competitionId, entry.id);
  }
  if (!payout) throw new NotFoundError("This claim link is not valid.");
  return payout;
}

/** The methods each kind of prize is paid by. */
const METHODS: Record<Payout["prizeType"], PayoutDetails["method"][]> = {
  CASH: ["paypal", "iban"],
  NON_CASH: ["address"],
};

/**
 * Stores the winner's payout details, sealed, on the payout the token opens, until it is paid
 * (a second claim corrects the first); the winner's address is e-mailed a confirmation in the
 * same atomic. A method that does not fit the prize is refused (400 naming `method`).
 */
export async function claimPayout(
  deps: PayoutDeps,
  token: string,
  details: PayoutDetails,
  now = new Date(),
): Promise<Payout> {
  const payout = await payoutOfToken(deps.kv, token);
  if (!METHODS[payout.prizeType].includes(details.method)) {
    throw fieldError(
      "method",
      payout.prizeType === "CASH"
        ? "A cash prize is paid by PayPal or bank transfer (IBAN), not to a postal address"
        : "This prize is sent by post: please give a postal address",
    );
  }
  const sealed = await seal(await sealKey(deps), details, detailsContext(payout));
  const competition = (await deps.kv.get<Competition>(keys.competition(payout.competitionId)))
    .value;
  const mail = buildClaimConfirmation({
    ...noticeOf(payout, competition?.name),
    details: maskedDetails(details),
    corrected: payout.status === "CLAIMED",
  });
  return await markPayoutClaimed(deps.kv, payout, sealed, {
    mail,
    deliver: mailerDelivers(deps.mailer),
  }, now).finally(() => deliverOutbox(deps.kv, deps.mailer).catch(() => {}));
}

/** What every e-mail to a winner says of their prize. */
function noticeOf(p: Payout, competitionName = "the competition") {
  return {
    to: p.email,
    teamName: p.teamName,
    teamId: p.teamId,
    competitionName,
    place: p.place,
    amount: p.amount,
    currency: p.currency,
    description: p.description,
  };
}

/** The details with most of the account hidden, for e-mails: "PayPal j***@example.com". */
export function maskedDetails(details: PayoutDetails): string {
  if (details.method === "paypal") return `PayPal ${maskEmail(details.paypalEmail)}`;
  if (details.method === "iban") return `IBAN ending ${details.iban.slice(-4)}`;
  const a = details.address;
  return `post to ${a.name}, ${a.postcode} ${a.city}, ${a.country}`;
}

/** Days after the first e-mail at which a winner who has not claimed is reminded. */
export const REMINDER_DAYS = [7, 30] as const;

/**
 * Reminds every winner who has not claimed, 7 and 30 days after they were told (a periodic job):
 * each reminder is written to the outbox in the atomic that records it sent, so each goes once.
 * The link is the entry's edit link (a claim link too), or a new claim link for older entries.
 * Returns how many were reminded.
 */
export async function remindUnclaimed(
  deps: PayoutDeps,
  origin: string,
  now = new Date(),
): Promise<number> {
  const names = new Map<number, string>();
  let reminded = 0;
  for (const payout of await listPayouts(deps.kv)) {
    if (payout.status !== "OWED" || !payout.notifiedAt) continue;
    const days = (now.getTime() - Date.parse(payout.notifiedAt)) / 86_400_000;
    const due = REMINDER_DAYS.filter((d) => d <= days && !payout.remindedDays?.includes(d)).at(-1);
    if (due === undefined) continue;
    if (!names.has(payout.competitionId)) {
      const c = (await deps.kv.get<Competition>(keys.competition(payout.competitionId))).value;
      names.set(payout.competitionId, c?.name ?? "the competition");
    }
    const entry = (await deps.kv.get<Entry>(keys.entry(payout.entryId))).value;
    const token = entry?.editToken ?? randomToken();
    const mail = buildClaimReminder({
      ...noticeOf(payout, names.get(payout.competitionId)),
      claimUrl: `${origin}/claim/${token}`,
      days: due,
    });
    const newHash = entry?.editToken ? null : await sha256Hex(token);
    const options = { deliver: mailerDelivers(deps.mailer), now };
    if (await recordReminder(deps.kv, payout, due, newHash, mail, options)) reminded++;
  }
  if (reminded > 0) await deliverOutbox(deps.kv, deps.mailer);
  return reminded;
}

/** A payout as the admin sees it: its state and the details opened. */
export interface PayoutRow extends Omit<Payout, "sealedDetails" | "tokenHash"> {
  state: PayoutState;
  details: PayoutDetails | null;
  /** Null when the competition was deleted. */
  competitionName: string | null;
  /** Whole days since the winner was told (or awarded), until it was paid. */
  waitedDays: number;
}

/** Every payout (filtered by state and competition), details opened, by competition and rank. */
export async function listPayoutRows(
  deps: PayoutDeps,
  filter: { state?: PayoutState | null; competitionId?: number | null } = {},
  now = Date.now(),
): Promise<PayoutRow[]> {
  const key = await sealKey(deps);
  const all = await listPayouts(deps.kv, filter.competitionId ?? undefined);
  const rows: PayoutRow[] = [];
  const names = new Map<number, string | null>();
  for (const { sealedDetails, tokenHash: _, ...p } of all) {
    const state = payoutState({ ...p, sealedDetails, tokenHash: null }, now);
    if (filter.state && state !== filter.state) continue;
    const details = sealedDetails
      ? await unseal<PayoutDetails>(key, sealedDetails, detailsContext(p))
      : null;
    if (!names.has(p.competitionId)) {
      const c = (await deps.kv.get<Competition>(keys.competition(p.competitionId))).value;
      names.set(p.competitionId, c?.name ?? null);
    }
    const since = Date.parse(p.notifiedAt ?? p.createdAt);
    const until = p.paidAt ? Date.parse(p.paidAt) : now;
    const waitedDays = Math.max(0, Math.floor((until - since) / 86_400_000));
    rows.push({ ...p, state, details, competitionName: names.get(p.competitionId)!, waitedDays });
  }
  return rows.sort((a, b) => a.competitionId - b.competitionId || a.rank - b.rank);
}

/** Totals per state and currency (minor units) and counts, over these rows. */
export function payoutTotals(rows: Pick<PayoutRow, "state" | "amount" | "currency">[]) {
  const totals: Record<PayoutState, Record<string, number>> = {
    owed: {},
    claimed: {},
    paid: {},
    unclaimed: {},
  };
  const counts: Record<PayoutState, number> = { owed: 0, claimed: 0, paid: 0, unclaimed: 0 };
  for (const row of rows) {
    counts[row.state]++;
    totals[row.state][row.currency] = (totals[row.state][row.currency] ?? 0) + row.amount;
  }
  return { counts, totals };
}

/** The prize money of one competition for the ledger: awarded (all cash won) and paid. */
export async function prizeMoney(
  kv: Deno.Kv,
  cid: number,
): Promise<{ awarded: number; paid: number }> {
  const payouts = await listPayouts(kv, cid);
  return {
    awarded: payouts.reduce((sum, p) => sum + p.amount, 0),
    paid: payouts.filter((p) => p.status === "PAID").reduce((sum, p) => sum + p.amount, 0),
  };
}

/** The details as one line: "PayPal jo@example.com", "IBAN GB82…", or the address. */
export function detailsText(details: PayoutDetails | null): string {
  if (!details) return "";
  if (details.method === "paypal") return `PayPal ${details.paypalEmail}`;
  if (details.method === "iban") return `IBAN ${details.iban} (${details.accountHolder})`;
  const a = details.address;
  return [a.name, a.line1, a.line2, a.city, a.postcode, a.country].filter(Boolean).join(", ");
}

/** The payouts as CSV (header row first), amounts in major units. */
export function payoutsCsv(rows: PayoutRow[]): string {
  const head = [
    "competition_id",
    "competition",
    "place",
    "team_id",
    "team_name",
    "email",
    "prize",
    "amount",
    "currency",
    "state",
    "details",
    "claimed_at",
    "paid_at",
    "reference",
  ];
  const lines = rows.map((r) =>
    [
      r.competitionId,
      r.competitionName ?? "(deleted)",
      r.place,
      r.teamId,
      r.teamName,
      r.email,
      r.description ?? "",
      (r.amount / 100).toFixed(2),
      r.currency.toUpperCase(),
      r.state,
      detailsText(r.details),
      r.claimedAt,
      r.paidAt,
      r.reference,
    ].map((v) => v === null ? null : String(v))
  );
  return toCsv(head, lines, { quoteAll: true });
}

/** ?status= and ?competitionId= of the payouts lists (a 400 naming the field when bad). */
export function parsePayoutFilter(params: URLSearchParams) {
  const status = params.get("status") || null;
  if (status !== null && !(PAYOUT_STATES as readonly string[]).includes(status)) {
    throw fieldError("status", `Status must be one of: ${PAYOUT_STATES.join(", ")}`);
  }
  const cid = params.get("competitionId") || null;
  if (cid !== null && !/^[1-9]\d{0,9}$/.test(cid)) {
    throw fieldError("competitionId", "Competition must be a positive whole number");
  }
  return { state: status as PayoutState | null, competitionId: cid === null ? null : Number(cid) };
}
