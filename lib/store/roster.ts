/**
 * The roster of a competition: a compact, append-only copy of what ranking needs from each entry
 * (id, createdAt, picks, team id and name), so a fresh isolate reads a few hundred KV values
 * instead of every entry.
 *
 * - `appendToRoster(op, entry)` adds the entry's packed record at `["roster_tail", cid, id]` in the
 *   entry's own atomic: a key of its own, so concurrent entries never collide on it.
 * - `compactRoster` moves tail records into a sealed chunk `["roster", cid, n]` (one atomic that
 *   checks and bumps `["roster_meta", cid]`, writes the chunk and deletes the moved tail keys), so
 *   at any snapshot each entry is in exactly one place: the tail or one chunk.
 * - `backfillRoster` packs entries written before the roster existed (or by bulk loaders) into
 *   chunks once per competition, then marks the roster complete; idempotent, and safe when several
 *   isolates run it at once (every chunk write checks the meta key).
 * - `RosterReader` keeps the columns of one competition in memory and catches up incrementally:
 *   new chunks plus the (small) tail, re-read until the meta key did not move meanwhile.
 *
 * The records' byte layout is known only to `roster_codec.ts`.
 */
import type { Entry } from "@/lib/domain/types.ts";
import { keys } from "./keys.ts";
import { entriesAfter } from "./leaderboard_reads.ts";
import { encodeRosterRecord, RosterRecords } from "./roster_codec.ts";
import { storeState } from "./store_state.ts";

/** The roster's state in KV. */
export interface RosterMeta {
  /** Sealed chunks 0..chunks-1 exist. */
  chunks: number;
  /** Every entry is in the roster (the backfill of older entries has run). */
  complete: boolean;
}

/** Most bytes of one chunk (Deno KV values are at most 64 KiB). */
const CHUNK_BYTES = 60_000;
/** Most tail records one compaction moves: a chunk, the meta and one delete each stay < 1000. */
const COMPACT_MAX = 900;
/** Writers seal the tail each time a competition's entry count passes a multiple of this. */
export const COMPACT_AT = 256;
const LIST_BATCH = 500;
/** Adds an empty, complete roster to a new competition's creating atomic (nothing to backfill). */
export function startRoster(op: Deno.AtomicOperation, cid: number): Deno.AtomicOperation {
  return op.set(keys.rosterMeta(cid), { chunks: 0, complete: true } satisfies RosterMeta);
}

/** Adds the entry's roster record to its creating atomic (call it wherever an entry is written). */
export function appendToRoster(op: Deno.AtomicOperation, entry: Entry): Deno.AtomicOperation {
  return op.set(keys.rosterTailEntry(entry.competitionId, entry.id), encodeRosterRecord(entry));
}

/** Concatenates records into chunks of at most CHUNK_BYTES. */
function pack(records: Uint8Array[]): Uint8Array[][] {
  const chunks: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let size = 0;
  for (const record of records) {
    if (current.length > 0 && size + record.length > CHUNK_BYTES) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(record);
    size += record.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function concat(records: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(records.reduce((sum, r) => sum + r.length, 0));
  let at = 0;
  for (const record of records) {
    out.set(record, at);
    at += record.length;
  }
  return out;
}

/** Calls `fn(id)` for each record of a chunk (or a single tail record). */
function eachId(bytes: Uint8Array, fn: (id: number) => void): void {
  const records = new RosterRecords(bytes);
  for (let at = 0; at < records.length; at = records.end(at)) fn(records.id(at));
}

/** A Float64Array/Int32Array/Uint32Array/Uint8Array at least `size` long, keeping the contents. */
function grow<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(
  array: T,
  size: number,
): T {
  if (array.length >= size) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/**
 * Append-only columns of a competition's entries in typed arrays (a million entries take about
 * 100 MB): ids, creation times and picks, plus where each record sits in the packed chunks it
 * came from, whose team id and name are decoded only for the rows shown.
 */
export class RosterColumns {
  length = 0;
  ids = new Float64Array(256);
  createdMs = new Float64Array(256);
  /** Picks of entry i are picks[pickStart[i] .. pickStart[i + 1]). */
  picks = new Int32Array(1280);
  pickStart = new Uint32Array(257);
  /** Entry i's captain and vice-captain player ids (0: none). */
  captains = new Int32Array(256);
  vices = new Int32Array(256);
  /** Entry i's record is at byte `recordAt[i]` of `chunks[bufferOf[i]]`. */
  readonly #chunks: RosterRecords[] = [];
  #bufferOf = new Uint32Array(256);
  #recordAt = new Uint32Array(256);
  /** Whether the ids are ascending (then `indexOf` is a binary search without a sort). */
  #sorted = true;
  #byId: Uint32Array | null = null;

  /** The largest id appended so far (ids come from a counter, so a larger one is new). */
  #maxId = -Infinity;

  /**
   * Appends the records of a chunk (or one tail record). A record of an entry already in the
   * columns replaces it: the entry's team was changed (its picks and name), or the record was
   * moved from the tail into a chunk. A team keeps its number of picks, so they change in place.
   */
  append(bytes: Uint8Array): void {
    const records = new RosterRecords(bytes);
    const buffer = this.#chunks.push(records) - 1;
    for (let start = 0; start < records.length; start = records.end(start)) {
      const id = records.id(start);
      const count = records.pickCount(start);
      const known = id <= this.#maxId ? this.indexOf(id) : -1;
      if (known >= 0) {
        this.#replace(known, records, start, count, buffer);
        continue;
      }
      this.#maxId = Math.max(this.#maxId, id);
      const i = this.length;
      if (i + 1 >= this.ids.length) this.#grow(i + 1);
      const pickAt = this.pickStart[i];
      if (pickAt + count > this.picks.length) this.picks = grow(this.picks, pickAt + count);
      for (let p = 0; p < count; p++) this.picks[pickAt + p] = records.pick(start, p);
      this.pickStart[i + 1] = pickAt + count;
      this.#setCaptains(i, records, start);
      if (i > 0 && id <= this.ids[i - 1]) this.#sorted = false;
      this.ids[i] = id;
      this.createdMs[i] = records.createdMs(start);
      this.#bufferOf[i] = buffer;
      this.#recordAt[i] = start;
      this.length = i + 1;
    }
    this.#byId = null;
  }

  /** Entry i's picks and record become those of the record at `start` of `buffer`. */
  #replace(i: number, records: RosterRecords, start: number, count: number, buffer: number): void {
    const pickAt = this.pickStart[i];
    if (this.pickStart[i + 1] - pickAt !== count) {
      throw new Error(`roster: entry ${this.ids[i]} changed its number of picks`);
    }
    for (let p = 0; p < count; p++) this.picks[pickAt + p] = records.pick(start, p);
    this.#setCaptains(i, records, start);
    this.#bufferOf[i] = buffer;
    this.#recordAt[i] = start;
  }

  /** Entry i's captain columns from the record at `start`. */
  #setCaptains(i: number, records: RosterRecords, start: number): void {
    const captain = records.captainPick(start);
    const vice = records.vicePick(start);
    this.captains[i] = captain < 0 ? 0 : records.pick(start, captain);
    this.vices[i] = vice < 0 ? 0 : records.pick(start, vice);
  }

  /** How many chunks were appended so far: it moves whenever an entry is added or changed. */
  get appends(): number {
    return this.#chunks.length;
  }

  /** Grows every per-entry column to the same new capacity (pickStart one longer). */
  #grow(size: number): void {
    const capacity = Math.max(size, this.ids.length * 2);
    this.ids = grow(this.ids, capacity);
    this.createdMs = grow(this.createdMs, capacity);
    this.pickStart = grow(this.pickStart, capacity + 1);
    this.captains = grow(this.captains, capacity);
    this.vices = grow(this.vices, capacity);
    this.#bufferOf = grow(this.#bufferOf, capacity);
    this.#recordAt = grow(this.#recordAt, capacity);
  }

  teamId(i: number): string {
    return this.#chunks[this.#bufferOf[i]].teamId(this.#recordAt[i]);
  }

  teamName(i: number): string {
    return this.#chunks[this.#bufferOf[i]].teamName(this.#recordAt[i]);
  }

  /** The index of entry `id` among the first `length` entries, or -1 (binary search by id). */
  indexOf(id: number): number {
    const byId = this.#sorted ? null : this.#byId ??= this.#sortById();
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const index = byId ? byId[mid] : mid;
      if (this.ids[index] === id) return index;
      if (this.ids[index] < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  #sortById(): Uint32Array {
    const order = new Uint32Array(this.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return order.sort((a, b) => this.ids[a] - this.ids[b]);
  }
}

/** Keeps one competition's roster columns in step with KV. */
export class RosterReader {
  readonly columns = new RosterColumns();
  /** Entries refunded on their own (`["roster_withdrawn", cid, id]`): off the leaderboard. */
  withdrawn: ReadonlySet<number> = new Set();
  #chunksRead = 0;
  /** The versionstamp of each tail record read, so an unchanged record is not read again. */
  readonly #tailRead = new Map<number, string>();

  /**
   * Appends every entry added since the last call (backfilling the roster first if it was never
   * completed) and reads the entries withdrawn. Returns how many records the tail holds.
   */
  async catchUp(kv: Deno.Kv, cid: number): Promise<number> {
    for (;;) {
      const meta = await kv.get<RosterMeta>(keys.rosterMeta(cid));
      if (!meta.value?.complete) {
        await backfillRoster(kv, cid);
        continue;
      }
      if (meta.value.chunks > this.#chunksRead) {
        const iter = kv.list<Uint8Array>({
          start: keys.rosterChunk(cid, this.#chunksRead),
          end: keys.rosterChunk(cid, meta.value.chunks),
        }, { batchSize: 64 });
        for await (const chunk of iter) this.columns.append(chunk.value);
        this.#chunksRead = meta.value.chunks;
      }
      let tail = 0;
      const seen = new Set<number>();
      const iter = kv.list<Uint8Array>({ prefix: keys.rosterTail(cid) }, { batchSize: LIST_BATCH });
      for await (const record of iter) {
        tail++;
        const id = record.key[2] as number;
        seen.add(id);
        if (this.#tailRead.get(id) === record.versionstamp) continue;
        this.#tailRead.set(id, record.versionstamp);
        this.columns.append(record.value);
      }
      // Records compacted away are in the chunks now: forget their versionstamps.
      for (const id of this.#tailRead.keys()) if (!seen.has(id)) this.#tailRead.delete(id);
      const withdrawn = new Set<number>();
      for await (const w of kv.list({ prefix: keys.rostersWithdrawn(cid) })) {
        withdrawn.add(w.key[2] as number);
      }
      this.withdrawn = withdrawn;
      const after = await kv.get<RosterMeta>(keys.rosterMeta(cid));
      if (after.versionstamp === meta.versionstamp) return tail;
    }
  }
}

/**
 * Moves up to COMPACT_MAX tail records into a new sealed chunk; returns how many it moved: 0 when
 * there was nothing to move, the roster is not complete yet, or another isolate changed the
 * roster meanwhile.
 */
export async function compactRoster(kv: Deno.Kv, cid: number): Promise<number> {
  const meta = await kv.get<RosterMeta>(keys.rosterMeta(cid));
  if (!meta.value?.complete) return 0;
  const moved: Deno.KvEntry<Uint8Array>[] = [];
  const iter = kv.list<Uint8Array>({ prefix: keys.rosterTail(cid) }, { limit: COMPACT_MAX });
  let size = 0;
  for await (const record of iter) {
    if (size + record.value.length > CHUNK_BYTES) break;
    moved.push(record);
    size += record.value.length;
  }
  if (moved.length === 0) return 0;
  const n = meta.value.chunks;
  const op = kv.atomic()
    .check(meta)
    .check({ key: keys.rosterChunk(cid, n), versionstamp: null })
    .set(keys.rosterChunk(cid, n), concat(moved.map((r) => r.value)))
    .set(keys.rosterMeta(cid), { chunks: n + 1, complete: true } satisfies RosterMeta);
  for (const record of moved) op.delete(record.key);
  return (await op.commit()).ok ? moved.length : 0;
}

/** Whether an entry count going from `before` to `after` passes a multiple of COMPACT_AT. */
export function passesCompaction(before: number, after: number): boolean {
  return Math.floor(after / COMPACT_AT) > Math.floor(before / COMPACT_AT);
}

/**
 * Seals the competition's roster tail into chunks, in the background of the write that made
 * the tail long: readers never write. Runs once per competition and isolate at a time; other
 * isolates' runs are safe (each chunk write checks the meta key).
 */
export function compactInBackground(kv: Deno.Kv, cid: number): Promise<void> {
  const running = storeState(kv).compacting;
  if (running.has(cid)) return Promise.resolve();
  running.add(cid);
  return (async () => {
    for (;;) {
      if (await compactRoster(kv, cid) < COMPACT_AT) return;
    }
  })().catch((err) => console.error(`roster: compacting competition ${cid}`, err))
    .finally(() => running.delete(cid));
}

/** Ids of every entry already in the roster (chunks and tail). */
async function rosterIds(kv: Deno.Kv, cid: number): Promise<Set<number>> {
  const ids = new Set<number>();
  for (const prefix of [keys.rosterChunks(cid), keys.rosterTail(cid)]) {
    for await (const item of kv.list<Uint8Array>({ prefix }, { batchSize: 64 })) {
      eachId(item.value, (id) => ids.add(id));
    }
  }
  return ids;
}

/**
 * Packs the competition's entries that are not in the roster yet into sealed chunks, then marks
 * the roster complete. Entries are scanned before the roster is read, so an entry committed in
 * between (with its tail record) is seen in the roster and not packed twice; each chunk write
 * checks the meta key, so a concurrent compaction or backfill makes this one start over.
 * `repair` runs it on a complete roster too (an entry was written without its roster record).
 */
export async function backfillRoster(kv: Deno.Kv, cid: number, repair = false): Promise<void> {
  for (;;) {
    const meta = await kv.get<RosterMeta>(keys.rosterMeta(cid));
    if (meta.value?.complete && !repair) return;
    const scanned: Uint8Array[] = [];
    for await (const entry of entriesAfter(kv, cid, 0, 0)) scanned.push(encodeRosterRecord(entry));
    const known = await rosterIds(kv, cid);
    const missing = scanned.filter((record) => !known.has(new RosterRecords(record).id(0)));
    if (await sealChunks(kv, cid, meta, missing, true)) return;
  }
}

/**
 * Appends `records` as sealed chunks after the roster's last one, then sets `complete`; every
 * write checks the meta key, so false (and nothing more written) when another writer moved it.
 */
async function sealChunks(
  kv: Deno.Kv,
  cid: number,
  meta: Deno.KvEntryMaybe<RosterMeta>,
  records: Uint8Array[],
  complete: boolean,
): Promise<boolean> {
  let versionstamp = meta.versionstamp;
  let chunks = meta.value?.chunks ?? 0;
  for (const packed of [...pack(records), null]) {
    const next: RosterMeta = { chunks: chunks + (packed ? 1 : 0), complete: !packed && complete };
    const op = kv.atomic().check({ key: keys.rosterMeta(cid), versionstamp });
    if (packed) op.set(keys.rosterChunk(cid, chunks), concat(packed));
    const res = await op.set(keys.rosterMeta(cid), next).commit();
    if (!res.ok) return false;
    versionstamp = res.versionstamp;
    chunks = next.chunks;
  }
  return true;
}

/**
 * Bulk loaders (seeds, imports): appends the records of entries written without their roster
 * records as sealed chunks, keeping the roster's `complete` mark. Retries while other writers
 * move the roster.
 */
export async function appendRosterChunks(
  kv: Deno.Kv,
  cid: number,
  records: Uint8Array[],
): Promise<void> {
  for (;;) {
    const meta = await kv.get<RosterMeta>(keys.rosterMeta(cid));
    if (await sealChunks(kv, cid, meta, records, meta.value?.complete ?? false)) return;
  }
}

/** Start-up migration: backfills the roster of every competition that has none yet. */
export async function backfillRosters(kv: Deno.Kv): Promise<void> {
  for await (const item of kv.list({ prefix: keys.competitions() })) {
    await backfillRoster(kv, item.key[1] as number);
  }
}
