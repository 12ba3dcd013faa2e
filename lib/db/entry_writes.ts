/**
 * The write of paid entries, as a group commit. The deadline rush sends hundreds of payments a
 * second into one competition: written one by one, every entry would re-read and rewrite the
 * competition record (its entry count) and the entry id counter, collide and retry, and cost one
 * store commit each. Here the entries that arrive while a commit is under way wait for the next
 * one, and each batch is ONE atomic: each competition's record and entry sequence are read once,
 * each entry is decided by `decideEntry` (the entry's decision; the payment's was taken before,
 * in checkout.ts) against the batch's own count, and the count is written once. Per isolate one batch is in flight, so the hot keys are contended by isolates,
 * not by buyers, and a failed batch is read again and retried without a limit (it fails only
 * because another batch committed): a paying customer never gets a "try again". No key is shared
 * by the sales of different competitions (entry ids come from a per-competition sequence, see
 * `entryIdOf`; the public list's marker moves only when a sale fills a competition, touch.ts), so
 * processes selling different competitions never refuse each other's commits.
 *
 * What the atomic checks: per entry, that the payment made no entry and was not refunded, that
 * its checkout is unchanged, that its team id and entry id are free, the payer's entry count and
 * team in the competition; per batch, each competition's record and entry sequence, and every player record and
 * competition-player link the picks were validated against (a player removed from the
 * competition, or whose salary changed, between the validation and the commit fails the batch
 * and the picks are decided again).
 */
import {
  type Charge,
  decideEntry,
  type EntryFacts,
  personOf,
  picksProblems,
  picksSignature,
  priceOf,
  type RefundCause,
} from "@/lib/domain/paid_entry.ts";
import type { Competition, Entry, Player } from "@/lib/domain/types.ts";
import { captaincyOf, keptCaptaincy } from "@/lib/domain/captain.ts";
import { closedReason } from "@/lib/domain/competition.ts";
import { nameSkeleton } from "@/lib/domain/display_name.ts";
import { ConflictError, InvalidInputError } from "@/lib/domain/errors.ts";
import { finalisedCheckout, newCheckout, type PendingCheckout, setCheckout } from "./checkouts.ts";
import { BatchQueue, type GroupedWrite, keyText, queuePerStore } from "@/lib/store/group_commit.ts";
import { keys } from "@/lib/store/keys.ts";
import { touchSale } from "@/lib/store/touch.ts";
import { appendToRoster, compactInBackground, passesCompaction } from "@/lib/store/roster.ts";
import type { Refund } from "./refunds.ts";
import { getManyEntries } from "@/lib/store/util.ts";
import { type PersonRecord, playFactsOf, playKeys } from "./persons.ts";
import { type Exclusion, keptSpends, type Spend } from "@/lib/domain/limits.ts";

/** What a paid entry is made of. */
export interface EntryInput {
  competitionId: number;
  email: string;
  teamName: string;
  playerIds: number[];
  stripePaymentId: string;
  /** What the provider charged; absent for entries made without a payment (demo data). */
  charge?: Charge;
  /** The captain and vice-captain picks (kept when the competition has captains). */
  captainId?: number;
  viceCaptainId?: number;
}

/**
 * Picks that make no team in this competition: a player outside it, or a rule of its team broken
 * (a 400 with `playerIds` issues).
 */
export class InvalidPicksError extends InvalidInputError {}

/**
 * Throws the ConflictError that stops an entry (or a payment intent) for this competition now:
 * not UPCOMING, deadline passed, or full.
 */
export function assertOpenForEntries(competition: Competition, now = new Date()): void {
  const reason = closedReason(competition, now);
  if (reason) throw new ConflictError(reason);
}

/**
 * Throws InvalidPicksError unless every pick is a player (`players`, same order, null when
 * missing) linked to the competition (`linked`) and the team keeps the competition's rules.
 */
export function assertValidPicks(
  competition: Competition,
  players: (Player | null)[],
  linked: boolean[],
): void {
  const problems = picksProblems(competition, { players, linked });
  if (problems.length === 0) return;
  throw new InvalidPicksError(
    problems[0],
    problems.map((message) => ({ path: ["playerIds"], message })),
  );
}

/**
 * A pick as a player at the competition's salary (the link carries the price; a link from before
 * per-competition salaries keeps the player's default); null for a missing player.
 */
export function pricedPlayer(
  player: Player | null,
  link: { salary?: unknown } | null,
): Player | null {
  if (!player) return null;
  return typeof link?.salary === "number" ? { ...player, salary: link.salary } : player;
}

const TEAM_ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A random public team id like `FFT-7K2QD9XM` (32 symbols, no 0/O/1/I). */
function randomTeamId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return "FFT-" + [...bytes].map((b) => TEAM_ID_ALPHABET[b % 32]).join("");
}

/** The secret of an entry's private edit link: 128 random bits, hex. */
function randomEditToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Entry ids are `cid × 2^32 + n`: the nth entry of competition `cid` (n from 1). */
const SEQ_SPAN = 2 ** 32;
/** Competitions whose entry ids stay safe integers (cid × 2^32 < 2^53). */
const MAX_SEQ_CID = 2 ** 21;

/**
 * The id of the `seq`th entry of competition `cid`: ids of one competition are dense and
 * ascending (its leaderboard reads them as one range), and no two competitions share a counter.
 * Entries made before (global counter `["ids", "entries"]`, all below 2^32) keep their ids.
 */
export function entryIdOf(cid: number, seq: number): number {
  if (!Number.isSafeInteger(cid) || cid < 1 || cid >= MAX_SEQ_CID) {
    throw new InvalidInputError(`Competition id ${cid} cannot number its entries`);
  }
  return cid * SEQ_SPAN + seq;
}

/** Deno KV takes at most 100 checks in one atomic. */
const MAX_CHECKS = 100;

/** What became of an entry sent to the commit. */
export type CommitOutcome =
  /** Made, with its picks as the commit read them (at the entry's salaries), in `competition`. */
  | { kind: "created"; entry: Entry; players: Player[]; competition: Competition }
  /**
   * The payment made an entry (`entryId`) or was refunded meanwhile: its records as the commit
   * read them, for the payment's decision on record (`decideOnRecord`).
   */
  | { kind: "settled"; entryId: number | null; refund: Refund | null; checkoutRefunded: boolean }
  /** It can never become an entry (closed, full, gone, picks, the payer's limit): refund. */
  | { kind: "refund"; reason: string; cause: RefundCause; problems?: string[] };

/** What the caller of `commitEntry` adds to the commit. */
export interface CommitOptions {
  /**
   * The entry's keys as the caller read them just before (`readEntryKeys`): the batch's first
   * try commits against these (and this queue's own last writes) instead of reading again.
   */
  read?: EntryKeyReads;
  /** A message to keep with the entry in the same atomic (e.g. its confirmation e-mail). */
  notice?: (made: { entry: Entry; players: Player[]; competition: Competition }) => GroupedWrite;
}

interface Waiting extends CommitOptions {
  input: EntryInput;
  now: Date;
  resolve(outcome: CommitOutcome): void;
  reject(err: unknown): void;
}

/** The keys of one entry, read (strongly) by `readEntryKeys`, by their text. */
export type EntryKeyReads = ReadonlyMap<string, Deno.KvEntryMaybe<unknown>>;

/**
 * Reads every key the commit of `input` decides on, in one wave of strong reads: with it, the
 * caller answers a repeat from the payment's records, and the batch's first try needs no read
 * of its own.
 */
export async function readEntryKeys(kv: Deno.Kv, input: EntryInput): Promise<EntryKeyReads> {
  const list = keysOf(input);
  const entries = await getManyEntries(kv, list);
  return new Map(list.map((key, i) => [keyText(key), entries[i]]));
}

/** The later of two reads of one key (versionstamps grow; a missing key is the earliest). */
function later<T>(a: Deno.KvEntryMaybe<T> | undefined, b: Deno.KvEntryMaybe<T>) {
  if (!a) return b;
  return (b.versionstamp ?? "") > (a.versionstamp ?? "") ? b : a;
}

/**
 * What this queue last wrote to the keys its batches share (competition records, sequences,
 * payers' counts), with the commit's versionstamp: the next batch's first try starts from these
 * rather than from its entries' own reads, which the previous batch made stale.
 */
class RecentWrites {
  static readonly MAX = 10_000;
  #entries = new Map<string, Deno.KvEntryMaybe<unknown>>();

  note(key: Deno.KvKey, value: unknown, versionstamp: string): void {
    if (this.#entries.size >= RecentWrites.MAX) this.#entries.clear();
    this.#entries.set(keyText(key), { key, value, versionstamp });
  }

  get(text: string): Deno.KvEntryMaybe<unknown> | undefined {
    return this.#entries.get(text);
  }
}

/** Every key a batch reads, by its text, so each is read (and checked) once. */
class BatchReads {
  #keys = new Map<string, Deno.KvKey>();
  #got = new Map<string, Deno.KvEntryMaybe<unknown>>();

  add(key: Deno.KvKey): void {
    this.#keys.set(keyText(key), key);
  }

  /** Takes a read made before (the latest of several of one key); `load` reads only the rest. */
  seed(text: string, entry: Deno.KvEntryMaybe<unknown>): void {
    if (this.#keys.has(text)) this.#got.set(text, later(this.#got.get(text), entry));
  }

  async load(kv: Deno.Kv): Promise<void> {
    const list = [...this.#keys].filter(([text]) => !this.#got.has(text)).map(([, key]) => key);
    if (list.length === 0) return;
    const entries = await getManyEntries(kv, list);
    list.forEach((key, i) => this.#got.set(keyText(key), entries[i]));
  }

  entry<T>(key: Deno.KvKey): Deno.KvEntryMaybe<T> {
    return this.#got.get(keyText(key)) as Deno.KvEntryMaybe<T>;
  }

  value<T>(key: Deno.KvKey): T | null {
    return this.entry<T>(key).value;
  }
}

/** The key of a display name in a competition. */
const nameKey = (cid: number, teamName: string) =>
  keys.teamNameInCompetition(cid, nameSkeleton(teamName));

/** The keys one waiting entry reads. */
function keysOf(
  { competitionId: cid, stripePaymentId: pid, email, playerIds, teamName }: EntryInput,
) {
  const person = personOf(email);
  return [
    keys.competition(cid),
    keys.entrySeq(cid),
    nameKey(cid, teamName),
    keys.entryByPayment(pid),
    keys.refund(pid),
    keys.checkout(pid),
    keys.personEntries(cid, person),
    keys.personTeam(cid, person, picksSignature(playerIds)),
    ...playKeys(person),
    ...playerIds.map(keys.player),
    ...playerIds.map((id) => keys.competitionPlayer(cid, id)),
  ];
}

/** The picks as players at the competition's salaries (see `pricedPlayer`). */
function pricedPicks(reads: BatchReads, cid: number, playerIds: number[]): (Player | null)[] {
  return playerIds.map((id) =>
    pricedPlayer(
      reads.value<Player>(keys.player(id)),
      reads.value<{ salary?: unknown }>(keys.competitionPlayer(cid, id)),
    )
  );
}

/**
 * The next batch: waiting entries in arrival order while the atomic's checks fit, at most one
 * per payment (a second request for the same payment waits and then finds the entry made).
 */
function takeEntries(waiting: Waiting[]): { batch: Waiting[]; rest: Waiting[] } {
  const checks = new Set<string>();
  const batch: Waiting[] = [];
  const payments = new Set<string>();
  const rest: Waiting[] = [];
  for (const w of waiting) {
    const fresh = keysOf(w.input).map(keyText).filter((key) => !checks.has(key));
    // Every key read is checked, and each entry also checks that its team id, id and notice
    // are free.
    const fits = checks.size + new Set(fresh).size + 3 * (batch.length + 1) <= MAX_CHECKS;
    if (payments.has(w.input.stripePaymentId) || (batch.length > 0 && !fits)) {
      rest.push(w);
      continue;
    }
    for (const key of fresh) checks.add(key);
    payments.add(w.input.stripePaymentId);
    batch.push(w);
  }
  return { batch, rest };
}

/** An entry the batch makes, with what its atomic writes besides the entry. */
interface Made {
  waiting: Waiting;
  entry: Entry;
  players: Player[];
  checkout: PendingCheckout | null;
  competition: Competition;
}

/** The batch's running counts: entries per competition and per payer, teams per payer. */
class BatchCounts {
  competitions = new Map<number, number>();
  /** The last entry sequence number taken per competition. */
  seqs = new Map<number, number>();
  persons = new Map<string, number>();
  teams = new Set<string>();
  /** Display names taken by the batch's entries (keys of their skeletons). */
  names = new Set<string>();
  /** Each payer's spends, with the batch's entries (by person). */
  spends = new Map<string, Spend[]>();
}

/**
 * What the batch decides for one waiting entry, from the batch's reads and counts: an entry to
 * make, or the outcome to give it once the batch has committed.
 */
function decideInBatch(
  { input, now }: Waiting,
  reads: BatchReads,
  counts: BatchCounts,
): { make: Competition; charge: Charge } | CommitOutcome {
  const cid = input.competitionId;
  const pid = input.stripePaymentId;
  const checkout = reads.value<PendingCheckout>(keys.checkout(pid));
  const entryId = reads.value<number>(keys.entryByPayment(pid));
  const refund = reads.value<Refund>(keys.refund(pid));
  if (entryId !== null || refund !== null || checkout?.status === "REFUNDED") {
    return { kind: "settled", entryId, refund, checkoutRefunded: checkout?.status === "REFUNDED" };
  }
  const stored = reads.value<Competition>(keys.competition(cid));
  const charge = input.charge ?? (stored ? priceOf(stored) : { amount: 0, currency: "usd" });
  const person = personOf(input.email);
  const personKey = keyText(keys.personEntries(cid, person));
  const teamKey = keyText(keys.personTeam(cid, person, picksSignature(input.playerIds)));
  const name = nameKey(cid, input.teamName);
  const facts: EntryFacts = {
    charge,
    competition: stored && {
      ...stored,
      currentEntries: counts.competitions.get(cid) ?? stored.currentEntries,
    },
    picks: {
      players: pricedPicks(reads, cid, input.playerIds),
      linked: input.playerIds.map((id) => reads.value(keys.competitionPlayer(cid, id)) !== null),
    },
    person: {
      entries: counts.persons.get(personKey) ??
        reads.value<number>(keys.personEntries(cid, person)) ?? 0,
      sameTeam: counts.teams.has(teamKey) ||
        reads.value(keys.personTeam(cid, person, picksSignature(input.playerIds))) !== null,
    },
    nameTaken: counts.names.has(keyText(name)) || reads.value(name) !== null,
    play: {
      ...playFactsOf(
        reads.value<PersonRecord>(keys.person(person)),
        reads.value<Exclusion>(keys.selfExclusion(person)),
        null,
      ),
      spends: counts.spends.get(person) ?? reads.value<Spend[]>(keys.personSpend(person)) ?? [],
    },
    now,
  };
  const decision = decideEntry(facts);
  if (decision.kind === "refund") return decision;
  counts.competitions.set(cid, decision.competition.currentEntries + 1);
  counts.persons.set(personKey, facts.person.entries + 1);
  counts.teams.add(teamKey);
  counts.names.add(keyText(name));
  counts.spends.set(person, keptSpends(facts.play!.spends, [[now.getTime(), charge.amount]], now));
  return { make: decision.competition, charge };
}

/**
 * The checkout of a payment that made `entry`, FINALISED: the pending one, or a new record when
 * the payment had none (so every paid entry has its payment record); null to leave it as it is.
 */
function settledCheckout(
  stored: PendingCheckout | null,
  { input, now }: Waiting,
  charge: Charge,
  entry: Entry,
): PendingCheckout | null {
  if (stored) return stored.status === "PENDING" ? finalisedCheckout(stored, entry.teamId) : null;
  const checkout = newCheckout({
    paymentIntentId: input.stripePaymentId,
    competitionId: input.competitionId,
    email: input.email,
    teamName: input.teamName,
    playerIds: input.playerIds,
    ...captaincyOf(input),
    ...charge,
    createdAt: now.toISOString(),
  });
  return finalisedCheckout(checkout, entry.teamId);
}

function newEntry(
  { input, now }: Waiting,
  competition: Competition,
  charge: Charge,
  id: number,
): Entry {
  return {
    id,
    competitionId: input.competitionId,
    email: input.email,
    teamId: randomTeamId(),
    teamName: input.teamName,
    stripePaymentId: input.stripePaymentId,
    playerIds: [...input.playerIds],
    amountPaid: charge.amount,
    currency: charge.currency,
    points: 0,
    rank: null,
    prize: null,
    prizeType: competition.prizeType,
    customPrizeDescription: competition.customPrizeDescription,
    createdAt: now.toISOString(),
    editToken: randomEditToken(),
    revision: 0,
    ...keptCaptaincy(competition, input.playerIds, input),
  };
}

/** A short random pause that grows with the attempt (at most 20 ms). */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 + attempt, 20)));
}

/**
 * The atomic of a batch: every entry made, every key decided on checked (the refused entries'
 * too: a refusal decided on a stale read, such as a recent write's count of a key deleted since,
 * is never answered), counts written once.
 */
function batchAtomic(
  kv: Deno.Kv,
  reads: BatchReads,
  made: Made[],
  counts: BatchCounts,
  refused: Waiting[] = [],
): Deno.AtomicOperation {
  const op = kv.atomic();
  const checked = new Set<string>();
  const check = (key: Deno.KvKey) => {
    if (checked.has(keyText(key))) return;
    checked.add(keyText(key));
    op.check(reads.entry(key));
  };
  for (const w of refused) for (const key of keysOf(w.input)) check(key);
  for (const { waiting: { input, notice }, entry, checkout, players, competition } of made) {
    for (const key of keysOf(input)) check(key);
    if (notice) {
      const staged = notice({ entry, players, competition });
      op.check(...staged.checks).mutate(...staged.mutations);
    }
    const person = personOf(entry.email);
    op.check({ key: keys.entryByTeamId(entry.teamId), versionstamp: null })
      .check({ key: keys.entry(entry.id), versionstamp: null })
      .set(keys.entry(entry.id), entry)
      .set(keys.entryByCompetition(entry.competitionId, entry.id), entry.id)
      .set(keys.entryByTeamId(entry.teamId), entry.id)
      .set(keys.entryByPayment(entry.stripePaymentId), entry.id)
      .set(keys.entryByEditToken(entry.editToken!), entry.id)
      .set(keys.entryByEmail(entry.email, entry.id), entry.id)
      .set(keys.personTeam(entry.competitionId, person, picksSignature(entry.playerIds)), entry.id)
      .set(nameKey(entry.competitionId, entry.teamName), entry.id);
    appendToRoster(op, entry);
    if (checkout) setCheckout(op, finalisedCheckout(checkout, entry.teamId));
  }
  for (const { entry } of made) {
    const key = keys.personEntries(entry.competitionId, personOf(entry.email));
    op.set(key, counts.persons.get(keyText(key))!);
  }
  for (const [person, spends] of counts.spends) op.set(keys.personSpend(person), spends);
  // The dashboard counts purchases from the entries paid, never from what browsers report.
  const perDay = new Map<string, number>();
  for (const { entry } of made) {
    const day = entry.createdAt.slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  for (const [day, n] of perDay) op.sum(keys.purchasesOn(day), BigInt(n));
  for (const [cid, count] of counts.competitions) {
    const competition = reads.value<Competition>(keys.competition(cid))!;
    op.set(keys.competition(cid), { ...competition, currentEntries: count })
      .set(keys.entrySeq(cid), counts.seqs.get(cid)!);
    const filled = competition.maxEntries !== null && count >= competition.maxEntries;
    touchSale(op, cid, filled);
  }
  return op;
}

/**
 * One try at a batch: settles what it can and returns the entries still to commit (empty when
 * done). Outcomes that refuse an entry are decided against this batch's own count, so they are
 * given only once the batch has committed: after a failed commit they are decided again.
 */
async function attemptBatch(
  kv: Deno.Kv,
  batch: Waiting[],
  recent: RecentWrites,
): Promise<Waiting[]> {
  const reads = new BatchReads();
  for (const w of batch) for (const key of keysOf(w.input)) reads.add(key);
  for (const w of batch) {
    // Reads made before the entry waited: used for its first try only.
    for (const [text, entry] of w.read ?? []) {
      reads.seed(text, entry);
      const mine = recent.get(text);
      if (mine) reads.seed(text, mine);
    }
    w.read = undefined;
  }
  await reads.load(kv);

  const counts = new BatchCounts();
  const made: Made[] = [];
  const answered: { waiting: Waiting; outcome: CommitOutcome }[] = [];
  for (const w of batch) {
    const decided = decideInBatch(w, reads, counts);
    if ("kind" in decided) {
      answered.push({ waiting: w, outcome: decided });
      continue;
    }
    const cid = w.input.competitionId;
    const seq = (counts.seqs.get(cid) ?? reads.value<number>(keys.entrySeq(cid)) ?? 0) + 1;
    counts.seqs.set(cid, seq);
    const entry = newEntry(w, decided.make, decided.charge, entryIdOf(cid, seq));
    // decideInBatch checked that every pick is a player of the competition.
    const players = pricedPicks(reads, cid, w.input.playerIds) as Player[];
    entry.pickSalaries = players.map((p) => p.salary);
    const stored = reads.value<PendingCheckout>(keys.checkout(w.input.stripePaymentId));
    made.push({
      waiting: w,
      entry,
      players,
      checkout: settledCheckout(stored, w, decided.charge, entry),
      competition: decided.make,
    });
  }
  if (made.length > 0 || answered.length > 0) {
    const refused = answered.map(({ waiting }) => waiting);
    const res = await batchAtomic(kv, reads, made, counts, refused).commit();
    if (!res.ok) return batch;
    rememberWrites(recent, made, counts, reads, res.versionstamp);
    for (const [cid, count] of counts.competitions) {
      const before = reads.value<Competition>(keys.competition(cid))!.currentEntries;
      if (passesCompaction(before, count)) compactInBackground(kv, cid);
    }
    for (const { waiting, entry, players, competition } of made) {
      waiting.resolve({ kind: "created", entry, players, competition });
    }
  }
  for (const { waiting, outcome } of answered) waiting.resolve(outcome);
  return [];
}

/** Notes what a committed batch wrote to the keys the next batches read (see RecentWrites). */
function rememberWrites(
  recent: RecentWrites,
  made: Made[],
  counts: BatchCounts,
  reads: BatchReads,
  versionstamp: string,
): void {
  for (const [cid, count] of counts.competitions) {
    const competition = reads.value<Competition>(keys.competition(cid))!;
    recent.note(keys.competition(cid), { ...competition, currentEntries: count }, versionstamp);
    recent.note(keys.entrySeq(cid), counts.seqs.get(cid)!, versionstamp);
  }
  for (const { entry } of made) {
    const key = keys.personEntries(entry.competitionId, personOf(entry.email));
    recent.note(key, counts.persons.get(keyText(key))!, versionstamp);
  }
  for (const [person, spends] of counts.spends) {
    recent.note(keys.personSpend(person), spends, versionstamp);
  }
}

const entryQueueOf = queuePerStore((kv) => {
  const attempts = new WeakMap<Waiting, number>();
  const recent = new RecentWrites();
  return new BatchQueue<Waiting>({
    take: takeEntries,
    async commit(batch) {
      const again = await attemptBatch(kv, batch, recent);
      if (again.length === 0) return [];
      const attempt = Math.max(...again.map((w) => attempts.get(w) ?? 0)) + 1;
      for (const w of again) attempts.set(w, attempt);
      await backoff(attempt);
      return again;
    },
    fail(batch, err) {
      for (const w of batch) w.reject(err);
    },
  });
});

/**
 * Commits the entry `input` describes in the next batch of this store. The outcome says whether
 * it was made, whether the payment was settled meanwhile (with its records, to answer from), or
 * why it can never be made (refund it). Only a store failure rejects.
 */
export function commitEntry(
  kv: Deno.Kv,
  input: EntryInput,
  now: Date,
  options: CommitOptions = {},
): Promise<CommitOutcome> {
  return new Promise((resolve, reject) =>
    entryQueueOf(kv).add({ ...options, input, now, resolve, reject })
  );
}
