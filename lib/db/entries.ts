/**
 * Paid entries. One atomic writes the entry, its indexes (`entries_by_competition`,
 * `entry_by_team_id`, `entry_by_payment`), its roster record (roster.ts), the competition's currentEntries and the live bump, so
 * an entry is never doubled per payment and maxEntries is never exceeded. The same atomic checks
 * that no refund was claimed for the payment (refunds.ts), so a payment is never both.
 */
import { rulesOf, validateTeam } from "../domain/team_rules.ts";
import type { Competition, Entry, Player } from "../domain/types.ts";
import { ConflictError, fieldError, InvalidInputError, NotFoundError } from "../domain/errors.ts";
import { closedReason } from "../domain/competition.ts";
import { reserveIds } from "./ids.ts";
import { isKeyText, keys } from "./keys.ts";
import { bumpLive } from "./live.ts";
import { getPlayersByIds } from "./players.ts";
import { appendToRoster } from "./roster.ts";
import { getManyEntries, getManyValues, listKeys, listValues, retryAtomic } from "./util.ts";

export interface EntryInput {
  competitionId: number;
  email: string;
  teamName: string;
  playerIds: number[];
  stripePaymentId: string;
}

export interface CreatedEntry {
  entry: Entry;
  /** false when the payment already had this entry (idempotent repeat). */
  created: boolean;
}

/** Why a refunded payment cannot make an entry. */
export const PAYMENT_REFUNDED = "This payment has been refunded and cannot be used for an entry.";
/** Why a payment for one competition cannot make an entry in another. */
export const OTHER_COMPETITION_PAYMENT = "This payment was made for a different competition.";

/**
 * Picks that make no team in this competition: a player outside it, or a rule of its team broken
 * (a 400 with `playerIds` issues). A paid payment refused with it is refunded (checkout.ts).
 */
export class InvalidPicksError extends InvalidInputError {}

const TEAM_ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A random public team id like `FFT-7K2QD9XM` (32 symbols, no 0/O/1/I). */
function randomTeamId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return "FFT-" + [...bytes].map((b) => TEAM_ID_ALPHABET[b % 32]).join("");
}

/**
 * Throws the ConflictError that stops an entry (or a payment intent) for this competition now:
 * not UPCOMING, deadline passed, or full.
 */
export function assertOpenForEntries(competition: Competition, now = new Date()): void {
  const reason = closedReason(competition, now);
  if (reason) throw new ConflictError(reason);
}

/** The picked players, all of which must exist and belong to the competition. */
async function readPicks(kv: Deno.Kv, cid: number, playerIds: number[]): Promise<Player[]> {
  const players = await getPlayersByIds(kv, playerIds);
  const links = await getManyEntries(kv, playerIds.map((id) => keys.competitionPlayer(cid, id)));
  if (players.length !== playerIds.length || links.some((link) => link.value === null)) {
    const message = "Some selected players are not part of this competition.";
    throw new InvalidPicksError(message, [{ path: ["playerIds"], message }]);
  }
  return players;
}

function assertValidTeam(players: Player[], competition: Competition): void {
  const problems = validateTeam(players, rulesOf(competition));
  if (problems.length === 0) return;
  throw new InvalidPicksError(
    problems[0],
    problems.map((message) => ({ path: ["playerIds"], message })),
  );
}

/**
 * Checks picks before any payment: every player exists, is in the competition and the team keeps
 * its rules (InvalidPicksError otherwise). createEntry checks them again.
 */
export async function assertValidPicks(
  kv: Deno.Kv,
  competition: Competition,
  playerIds: number[],
): Promise<void> {
  assertValidTeam(await readPicks(kv, competition.id, playerIds), competition);
}

/** The entry `paid` already made, when it is for the competition asked for (400 otherwise). */
export function assertSameCompetition(paid: Entry, competitionId: number): Entry {
  if (paid.competitionId === competitionId) return paid;
  throw fieldError("stripePaymentId", OTHER_COMPETITION_PAYMENT);
}

/** The payment's entry link, refund mark and the competition, read as one snapshot. */
async function readEntryState(kv: Deno.Kv, input: EntryInput) {
  const [byPayment, refund, competition] = await kv.getMany<[number, unknown, Competition]>([
    keys.entryByPayment(input.stripePaymentId),
    keys.refund(input.stripePaymentId),
    keys.competition(input.competitionId),
  ]);
  return { byPayment, refund, competition };
}

/**
 * The entry this payment already made, or null when it may make one now; throws what stops it
 * (refunded, unknown competition, closed, past the deadline, full). The payment's own entry is
 * looked at first, so a retry is never refused because that entry filled the competition.
 */
async function paidEntryOrAssertOpen(
  kv: Deno.Kv,
  state: Awaited<ReturnType<typeof readEntryState>>,
  input: EntryInput,
  now: Date,
): Promise<Entry | null> {
  const paid = state.byPayment.value === null ? null : await getEntry(kv, state.byPayment.value);
  if (paid) return assertSameCompetition(paid, input.competitionId);
  if (state.refund.value !== null) throw new ConflictError(PAYMENT_REFUNDED);
  if (!state.competition.value) throw new NotFoundError("Competition not found");
  assertOpenForEntries(state.competition.value, now);
  return null;
}

/**
 * Creates the entry paid by `stripePaymentId`, or returns the one that payment already made
 * (`created: false`). Refusals: ConflictError when closed, past the deadline, full or the payment
 * was refunded; InvalidPicksError when the team breaks a rule or picks a player outside the
 * competition; InvalidInputError when the payment's entry is in another competition; NotFoundError
 * for an unknown competition.
 */
export async function createEntry(
  kv: Deno.Kv,
  input: EntryInput,
  now = new Date(),
): Promise<CreatedEntry> {
  const cid = input.competitionId;
  if (!isKeyText(input.stripePaymentId)) {
    throw fieldError("stripePaymentId", "Invalid payment id");
  }
  const existing = await paidEntryOrAssertOpen(kv, await readEntryState(kv, input), input, now);
  if (existing) return { entry: existing, created: false };
  const players = await readPicks(kv, cid, input.playerIds);
  return retryAtomic("create the entry", async () => {
    const state = await readEntryState(kv, input);
    const paid = await paidEntryOrAssertOpen(kv, state, input, now);
    if (paid) return { entry: paid, created: false };
    const competition = state.competition.value!;
    assertValidTeam(players, competition);

    const reservation = await reserveIds(kv, "entries");
    const entry: Entry = {
      id: reservation.ids[0],
      competitionId: cid,
      email: input.email,
      teamId: randomTeamId(),
      teamName: input.teamName,
      stripePaymentId: input.stripePaymentId,
      playerIds: [...input.playerIds],
      points: 0,
      rank: null,
      prize: null,
      prizeType: competition.prizeType,
      customPrizeDescription: competition.customPrizeDescription,
      createdAt: now.toISOString(),
    };
    const op = reservation.claim(kv.atomic())
      .check(state.byPayment)
      .check(state.refund)
      .check(state.competition)
      .check({ key: keys.entry(entry.id), versionstamp: null })
      .check({ key: keys.entryByTeamId(entry.teamId), versionstamp: null })
      .set(keys.entry(entry.id), entry)
      .set(keys.entryByCompetition(cid, entry.id), entry.id)
      .set(keys.entryByTeamId(entry.teamId), entry.id)
      .set(keys.entryByPayment(entry.stripePaymentId), entry.id)
      .set(keys.competition(cid), {
        ...competition,
        currentEntries: competition.currentEntries + 1,
      });
    appendToRoster(op, entry);
    bumpLive(op, cid);
    const res = await op.commit();
    return res.ok ? { entry, created: true } : undefined;
  });
}

/** The entry with this numeric id, or null. */
export async function getEntry(kv: Deno.Kv, id: number): Promise<Entry | null> {
  return (await kv.get<Entry>(keys.entry(id))).value;
}

/** The entry with this public team id (`FFT-…`), or null. */
export async function getEntryByTeamId(kv: Deno.Kv, teamId: string): Promise<Entry | null> {
  if (!isKeyText(teamId)) return null;
  const id = (await kv.get<number>(keys.entryByTeamId(teamId))).value;
  return id === null ? null : getEntry(kv, id);
}

/** The entry paid by this payment intent, or null. */
export async function getEntryByPayment(
  kv: Deno.Kv,
  paymentIntentId: string,
): Promise<Entry | null> {
  if (!isKeyText(paymentIntentId)) return null;
  const id = (await kv.get<number>(keys.entryByPayment(paymentIntentId))).value;
  return id === null ? null : getEntry(kv, id);
}

/** Every entry of a competition, by id (creation order). */
export async function listEntriesByCompetition(kv: Deno.Kv, cid: number): Promise<Entry[]> {
  const ids = await listValues<number>(kv, keys.entriesByCompetition(cid));
  return getManyValues<Entry>(kv, ids.map(keys.entry));
}

/** How many (paid) entries a competition has. */
export async function countPaidEntries(kv: Deno.Kv, cid: number): Promise<number> {
  return (await listKeys(kv, keys.entriesByCompetition(cid))).length;
}
