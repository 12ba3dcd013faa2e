/**
 * Paid entries: every read of entries, and `createEntry` for entries made without the payment
 * flow (demo data, tests). The write itself, a group commit that decides each entry with
 * `decidePayment` against what it read, is in entry_writes.ts.
 */
import type { Competition, Entry, Player } from "@/lib/domain/types.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import {
  OTHER_COMPETITION_PAYMENT,
  PAYMENT_REFUNDED,
  type PersonFacts,
  personOf,
  picksSignature,
} from "@/lib/domain/paid_entry.ts";
import { nameSkeleton } from "@/lib/domain/display_name.ts";
import { commitEntry, type EntryInput, InvalidPicksError, pricedPlayer } from "./entry_writes.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { getManyEntries, getManyValues, listKeys, listValues } from "@/lib/store/util.ts";

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
 * (`assertValidPicks`), in one read; the entry's commit checks the picks again.
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

/**
 * What a person already holds in a competition: their entry count, and whether `playerIds` is
 * a team they entered already (read before any payment; the entry's commit checks both again).
 */
export async function personStanding(
  kv: Deno.Kv,
  competitionId: number,
  email: string,
  playerIds: number[] = [],
): Promise<PersonFacts> {
  const person = personOf(email);
  const [entries, team] = await getManyEntries(kv, [
    keys.personEntries(competitionId, person),
    keys.personTeam(competitionId, person, picksSignature(playerIds)),
  ]);
  return {
    entries: (entries.value as number | null) ?? 0,
    sameTeam: playerIds.length > 0 && team.value !== null,
  };
}

/** Whether another entry of the competition holds this display name or a look-alike of it. */
export async function displayNameTaken(
  kv: Deno.Kv,
  competitionId: number,
  teamName: string,
): Promise<boolean> {
  const key = keys.teamNameInCompetition(competitionId, nameSkeleton(teamName));
  return (await kv.get(key)).value !== null;
}

/**
 * Creates the entry `input` describes without asking a payment provider (demo data and tests;
 * paid entries go through `finaliseEntry`), or returns the one its payment id already made
 * (`created: false`). Refusals: InvalidPicksError when the team breaks a rule or picks a player
 * outside the competition; NotFoundError for an unknown competition; ConflictError when closed,
 * past the deadline, full, over the payer's limit, or the payment id was refunded.
 */
export async function createEntry(
  kv: Deno.Kv,
  input: EntryInput,
  now = new Date(),
): Promise<CreatedEntry> {
  if (!isKeyText(input.stripePaymentId)) {
    throw fieldError("stripePaymentId", "Invalid payment id");
  }
  const outcome = await commitEntry(kv, input, now);
  if (outcome.kind === "created") return { ...outcome, created: true };
  if (outcome.kind === "refund") {
    if (outcome.cause === "gone") throw new NotFoundError("Competition not found");
    if (outcome.cause !== "picks") throw new ConflictError(outcome.reason);
    const problems = outcome.problems ?? [outcome.reason];
    throw new InvalidPicksError(
      problems[0],
      problems.map((message) => ({ path: ["playerIds"], message })),
    );
  }
  // Settled meanwhile: the payment made its entry, or was refunded.
  const existing = await getEntryByPayment(kv, input.stripePaymentId);
  if (!existing) throw new ConflictError(PAYMENT_REFUNDED);
  if (existing.competitionId !== input.competitionId) {
    throw fieldError("stripePaymentId", OTHER_COMPETITION_PAYMENT);
  }
  return { entry: existing, created: false };
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
