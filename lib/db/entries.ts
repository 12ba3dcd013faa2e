/**
 * Paid entries: reads here; the write, a group commit that checks what the validation read, is
 * in entry_writes.ts. An entry is never doubled per payment, never made for a refunded payment
 * (refunds.ts), and maxEntries is never exceeded.
 */
import type { Competition, Entry, Player } from "@/lib/domain/types.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import {
  assertOpenForEntries,
  commitEntry,
  type EntryInput,
  pricedPlayer,
} from "./entry_writes.ts";
import { isKeyText, keys } from "./keys.ts";
import { getManyEntries, getManyValues, listKeys, listValues } from "./util.ts";

export {
  assertOpenForEntries,
  assertValidPicks,
  type EntryInput,
  InvalidPicksError,
} from "./entry_writes.ts";

export interface CreatedEntry {
  entry: Entry;
  /** false when the payment already had this entry (idempotent repeat). */
  created: boolean;
  /** When created: the picks as the commit read them, at the entry's salaries. */
  players?: Player[];
}

/** Why a refunded payment cannot make an entry. */
export const PAYMENT_REFUNDED = "This payment has been refunded and cannot be used for an entry.";
/** Why a payment for one competition cannot make an entry in another. */
export const OTHER_COMPETITION_PAYMENT = "This payment was made for a different competition.";

/** A competition with the picks asked for it, as `assertValidPicks` takes them. */
export interface CompetitionWithPicks {
  competition: Competition;
  /** The picked players at the competition's salaries, same order; null for an unknown one. */
  players: (Player | null)[];
  /** Whether each pick is linked to the competition. */
  linked: boolean[];
}

/**
 * The competition (NotFoundError when unknown) with the picks to check before any payment
 * (`assertValidPicks`), in one read; createEntry checks the picks again.
 */
export async function competitionWithPicks(
  kv: Deno.Kv,
  competitionId: number,
  playerIds: number[] = [],
): Promise<CompetitionWithPicks> {
  const [found, ...rest] = await getManyEntries(kv, [
    keys.competition(competitionId),
    ...playerIds.map(keys.player),
    ...playerIds.map((id) => keys.competitionPlayer(competitionId, id)),
  ]);
  const competition = found.value as Competition | null;
  if (!competition) throw new NotFoundError("Competition not found");
  const links = rest.slice(playerIds.length).map((e) => e.value as { salary?: unknown } | null);
  const players = rest.slice(0, playerIds.length)
    .map((e, i) => pricedPlayer(e.value as Player | null, links[i]));
  return { competition, players, linked: links.map((link) => link !== null) };
}

/** The entry `paid` already made, when it is for the competition asked for (400 otherwise). */
export function assertSameCompetition(paid: Entry, competitionId: number): Entry {
  if (paid.competitionId === competitionId) return paid;
  throw fieldError("stripePaymentId", OTHER_COMPETITION_PAYMENT);
}

/**
 * The entry this payment already made, or null when it may make one now; throws what stops it
 * (refunded, unknown competition, closed, past the deadline, full). The payment's own entry is
 * looked at first, so a retry is never refused because that entry filled the competition.
 */
async function paidEntryOrAssertOpen(
  kv: Deno.Kv,
  input: EntryInput,
  now: Date,
): Promise<Entry | null> {
  const [byPayment, refund, competition] = await kv.getMany<[number, unknown, Competition]>([
    keys.entryByPayment(input.stripePaymentId),
    keys.refund(input.stripePaymentId),
    keys.competition(input.competitionId),
  ]);
  const paid = byPayment.value === null ? null : await getEntry(kv, byPayment.value);
  if (paid) return assertSameCompetition(paid, input.competitionId);
  if (refund.value !== null) throw new ConflictError(PAYMENT_REFUNDED);
  if (!competition.value) throw new NotFoundError("Competition not found");
  assertOpenForEntries(competition.value, now);
  return null;
}

/**
 * Creates the entry paid by `stripePaymentId`, or returns the one that payment already made
 * (`created: false`). Refusals: ConflictError when closed, past the deadline, full or the payment
 * was refunded; InvalidPicksError when the team breaks a rule or picks a player outside the
 * competition; InvalidInputError when the payment's entry is in another competition; NotFoundError
 * for an unknown competition. Never a "try again": concurrent entries are committed together.
 */
export async function createEntry(
  kv: Deno.Kv,
  input: EntryInput,
  now = new Date(),
): Promise<CreatedEntry> {
  if (!isKeyText(input.stripePaymentId)) {
    throw fieldError("stripePaymentId", "Invalid payment id");
  }
  // The batch checks everything the entry depends on; only when it finds the payment already
  // settled (an entry or a refund) is it looked at on its own.
  for (;;) {
    const committed = await commitEntry(kv, input, now);
    if (committed) return { ...committed, created: true };
    const existing = await paidEntryOrAssertOpen(kv, input, now);
    if (existing) return { entry: existing, created: false };
  }
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
