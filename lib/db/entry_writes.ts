/**
 * The write of paid entries, as a group commit (issue #9). The deadline rush sends hundreds of
 * payments a second into one competition; written one by one, every entry re-read and rewrote
 * the competition record (its entry count) and the entry id counter, so concurrent writers
 * collided and retried, and each entry cost one store commit (a commit is what a SQLite-backed
 * store does at most ~1,000 times a second). Here the entries that arrive while a commit is under
 * way wait for the next one, and each batch is ONE atomic: the id counter and each competition
 * record are read once, the entries of the batch are counted against `maxEntries` in memory and
 * the count is written once. Each entry also appends its record to the competition's roster
 * (roster.ts), under its own key. Per isolate one batch is in flight at a time, so the counter and
 * the competition record are contended only by other isolates or processes (not by the
 * clients), and a failed batch is re-read and committed again, without a retry limit: a batch
 * fails only because another one committed.
 *
 * What the atomic checks, per entry: the payment made no entry (`entry_by_payment`) and was not
 * refunded (`refunds`), the team id is free, the pending checkout (set FINALISED in the same
 * atomic); per batch: the id counter, each competition record and every player record and
 * competition-player link the picks validation read (so a player removed from the competition,
 * or whose salary or position changed, between the validation and the commit fails the batch and
 * the picks are validated again).
 */
import { rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import type { Competition, Entry, Player } from "@/lib/domain/types.ts";
import { closedReason } from "@/lib/domain/competition.ts";
import { ConflictError, InvalidInputError, NotFoundError } from "@/lib/domain/errors.ts";
import { toCents } from "@/lib/domain/format.ts";
import { finalisedCheckout, newCheckout, type PendingCheckout, setCheckout } from "./checkouts.ts";
import { keys } from "./keys.ts";
import { bumpLive } from "./live.ts";
import { appendToRoster } from "./roster.ts";
import { getManyEntries } from "./util.ts";

/** What a paid entry is made of. */
export interface EntryInput {
  competitionId: number;
  email: string;
  teamName: string;
  playerIds: number[];
  stripePaymentId: string;
}

/**
 * Picks that make no team in this competition: a player outside it, or a rule of its team broken
 * (a 400 with `playerIds` issues). A paid payment refused with it is refunded (checkout.ts).
 */
export class InvalidPicksError extends InvalidInputError {}

const NOT_IN_COMPETITION = "Some selected players are not part of this competition.";

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
  if (players.some((p) => p === null) || linked.some((l) => !l)) {
    throw new InvalidPicksError(NOT_IN_COMPETITION, [
      { path: ["playerIds"], message: NOT_IN_COMPETITION },
    ]);
  }
  const problems = validateTeam(players as Player[], rulesOf(competition));
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

/** The picks as players at the competition's salaries (see `pricedPlayer`). */
function pricedPicks(
  reads: { value<T>(key: Deno.KvKey): T | null },
  cid: number,
  playerIds: number[],
): (Player | null)[] {
  return playerIds.map((id) =>
    pricedPlayer(
      reads.value<Player>(keys.player(id)),
      reads.value<{ salary?: unknown }>(keys.competitionPlayer(cid, id)),
    )
  );
}

const TEAM_ID_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A random public team id like `FFT-7K2QD9XM` (32 symbols, no 0/O/1/I). */
function randomTeamId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return "FFT-" + [...bytes].map((b) => TEAM_ID_ALPHABET[b % 32]).join("");
}

/** Deno KV takes at most 100 checks in one atomic. */
const MAX_CHECKS = 100;

/** An entry just committed, with its picks as the commit read them (at the entry's salaries). */
export interface CommittedEntry {
  entry: Entry;
  players: Player[];
}

interface Waiting {
  input: EntryInput;
  now: Date;
  /** The entry made, or null: the payment's state changed (re-check it from the start). */
  resolve(committed: CommittedEntry | null): void;
  reject(err: unknown): void;
}

const keyText = (key: Deno.KvKey) => JSON.stringify(key);

/** Every key a batch reads, by its text, so each is read (and checked) once. */
class BatchReads {
  #keys = new Map<string, Deno.KvKey>();
  #got = new Map<string, Deno.KvEntryMaybe<unknown>>();

  add(key: Deno.KvKey): void {
    this.#keys.set(keyText(key), key);
  }

  get size(): number {
    return this.#keys.size;
  }

  async load(kv: Deno.Kv): Promise<void> {
    const list = [...this.#keys.values()];
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

/** The keys one waiting entry reads, besides the batch-wide id counter. */
function keysOf({ input }: Waiting): Deno.KvKey[] {
  const cid = input.competitionId;
  return [
    keys.competition(cid),
    keys.entryByPayment(input.stripePaymentId),
    keys.refund(input.stripePaymentId),
    keys.checkout(input.stripePaymentId),
    ...input.playerIds.map(keys.player),
    ...input.playerIds.map((id) => keys.competitionPlayer(cid, id)),
  ];
}

/** Entries of one store, committed in batches; one batch in flight at a time. */
class EntryCommitQueue {
  #waiting: Waiting[] = [];
  #running = false;

  constructor(private readonly kv: Deno.Kv) {}

  submit(input: EntryInput, now: Date): Promise<CommittedEntry | null> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ input, now, resolve, reject });
      if (!this.#running) void this.#run();
    });
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#take();
        try {
          await this.#commit(batch);
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
      }
    } finally {
      this.#running = false;
    }
  }

  /**
   * The next batch: waiting entries in arrival order while the atomic's checks fit, at most one
   * per payment (a second request for the same payment waits and then finds the entry made).
   */
  #take(): Waiting[] {
    const checks = new Set([keyText(keys.ids("entries"))]);
    const batch: Waiting[] = [];
    const payments = new Set<string>();
    const rest: Waiting[] = [];
    for (const w of this.#waiting) {
      const fresh = keysOf(w).map(keyText).filter((key) => !checks.has(key));
      // Every key read is checked, and each entry also checks that its team id is free.
      const fits = checks.size + new Set(fresh).size + batch.length + 1 <= MAX_CHECKS;
      if (payments.has(w.input.stripePaymentId) || (batch.length > 0 && !fits)) {
        rest.push(w);
        continue;
      }
      for (const key of fresh) checks.add(key);
      payments.add(w.input.stripePaymentId);
      batch.push(w);
    }
    this.#waiting = rest;
    return batch;
  }

  /** Commits one batch, reading again after a failed attempt, until every entry is settled. */
  async #commit(batch: Waiting[]): Promise<void> {
    let open = batch;
    for (let attempt = 0; open.length > 0; attempt++) {
      if (attempt > 0) await backoff(attempt);
      open = await this.#attempt(open);
    }
  }

  /** One try: settles what it can and returns the entries still to commit (empty when done). */
  async #attempt(batch: Waiting[]): Promise<Waiting[]> {
    const reads = new BatchReads();
    const counterKey = keys.ids("entries");
    reads.add(counterKey);
    for (const w of batch) for (const key of keysOf(w)) reads.add(key);
    await reads.load(this.kv);

    const counter = reads.entry<number>(counterKey);
    let nextId = (counter.value ?? 0) + 1;
    const counts = new Map<number, number>();
    const made: {
      waiting: Waiting;
      entry: Entry;
      players: Player[];
      checkout: PendingCheckout | null;
    }[] = [];
    // Refusals are decided against this batch's own count, so they are final only once the batch
    // has committed: after a failed commit they are decided again with the others.
    const refused: { waiting: Waiting; err: unknown }[] = [];
    for (const w of batch) {
      const decided = this.#decide(w, reads, counts);
      if (decided === "settled") continue;
      if ("refusal" in decided) {
        refused.push({ waiting: w, err: decided.refusal });
        continue;
      }
      const entry = newEntry(w, decided, nextId++);
      const stored = reads.value<PendingCheckout>(keys.checkout(w.input.stripePaymentId));
      // #decide checked that every pick is a player of the competition.
      const players = pricedPicks(reads, decided.id, w.input.playerIds) as Player[];
      entry.pickSalaries = players.map((p) => p.salary);
      made.push({
        waiting: w,
        entry,
        players,
        checkout: settledCheckout(stored, w, decided, entry),
      });
    }
    const refuse = () => {
      for (const { waiting, err } of refused) waiting.reject(err);
    };
    if (made.length === 0) {
      refuse();
      return [];
    }

    const op = this.kv.atomic().check(counter).set(counterKey, nextId - 1);
    const checked = new Set<string>([keyText(counterKey)]);
    const check = (key: Deno.KvKey) => {
      if (checked.has(keyText(key))) return;
      checked.add(keyText(key));
      op.check(reads.entry(key));
    };
    for (const { waiting: { input }, entry, checkout } of made) {
      for (const key of keysOf({ input } as Waiting)) check(key);
      op.check({ key: keys.entryByTeamId(entry.teamId), versionstamp: null })
        .set(keys.entry(entry.id), entry)
        .set(keys.entryByCompetition(entry.competitionId, entry.id), entry.id)
        .set(keys.entryByTeamId(entry.teamId), entry.id)
        .set(keys.entryByPayment(entry.stripePaymentId), entry.id)
        .set(keys.entryByEmail(entry.email, entry.id), entry.id);
      appendToRoster(op, entry);
      if (checkout) setCheckout(op, finalisedCheckout(checkout, entry.teamId));
    }
    for (const [cid, count] of counts) {
      const competition = reads.value<Competition>(keys.competition(cid))!;
      op.set(keys.competition(cid), { ...competition, currentEntries: count });
      bumpLive(op, cid);
    }
    const res = await op.commit();
    if (!res.ok) {
      const again = new Set([...made, ...refused].map((m) => m.waiting));
      return batch.filter((w) => again.has(w));
    }
    for (const { waiting, entry, players } of made) waiting.resolve({ entry, players });
    refuse();
    return [];
  }

  /**
   * Whether `w` can make an entry now: its competition (with the entries counted so far in this
   * batch); `{ refusal }` when it cannot (final only once the batch commits); or "settled" when it
   * was answered (not found, or sent back to re-check its payment).
   */
  #decide(
    w: Waiting,
    reads: BatchReads,
    counts: Map<number, number>,
  ): Competition | { refusal: unknown } | "settled" {
    const { input } = w;
    const cid = input.competitionId;
    if (
      reads.value(keys.entryByPayment(input.stripePaymentId)) !== null ||
      reads.value(keys.refund(input.stripePaymentId)) !== null
    ) {
      w.resolve(null);
      return "settled";
    }
    const stored = reads.value<Competition>(keys.competition(cid));
    if (!stored) {
      w.reject(new NotFoundError("Competition not found"));
      return "settled";
    }
    const competition = { ...stored, currentEntries: counts.get(cid) ?? stored.currentEntries };
    try {
      assertOpenForEntries(competition, w.now);
      assertValidPicks(
        competition,
        pricedPicks(reads, cid, input.playerIds),
        input.playerIds.map((id) => reads.value(keys.competitionPlayer(cid, id)) !== null),
      );
    } catch (err) {
      return { refusal: err };
    }
    counts.set(cid, competition.currentEntries + 1);
    return competition;
  }
}

/**
 * The checkout of a payment that made `entry`, FINALISED: the pending one, or a new record when
 * the payment had none (so every paid entry has its payment record); null to leave it as it is.
 */
function settledCheckout(
  stored: PendingCheckout | null,
  { input, now }: Waiting,
  competition: Competition,
  entry: Entry,
): PendingCheckout | null {
  if (stored) return stored.status === "PENDING" ? finalisedCheckout(stored, entry.teamId) : null;
  const checkout = newCheckout({
    paymentIntentId: input.stripePaymentId,
    competitionId: input.competitionId,
    email: input.email,
    teamName: input.teamName,
    playerIds: input.playerIds,
    amount: toCents(competition.entryFee),
    currency: competition.currency.toLowerCase(),
    createdAt: now.toISOString(),
  });
  return finalisedCheckout(checkout, entry.teamId);
}

function newEntry({ input, now }: Waiting, competition: Competition, id: number): Entry {
  return {
    id,
    competitionId: input.competitionId,
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
}

/** A short random pause that grows with the attempt (at most 20 ms). */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 + attempt, 20)));
}

const queues = new WeakMap<Deno.Kv, EntryCommitQueue>();

/**
 * Commits the entry `input` describes in the next batch of this store: the entry with its picks,
 * or null when the payment already made an entry or was refunded meanwhile (the caller looks
 * again). Throws
 * what refuses it: ConflictError (closed, past the deadline, full), InvalidPicksError,
 * NotFoundError (no such competition).
 */
export function commitEntry(
  kv: Deno.Kv,
  input: EntryInput,
  now: Date,
): Promise<CommittedEntry | null> {
  let queue = queues.get(kv);
  if (!queue) {
    queue = new EntryCommitQueue(kv);
    queues.set(kv, queue);
  }
  return queue.submit(input, now);
}
