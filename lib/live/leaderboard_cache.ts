/**
 * In-process cache of ranked standings per competition, keyed by the versionstamp of
 * `["live", cid]`: every entry, performance, event, prize or competition change bumps that key,
 * so a request costs one `kv.get` while nothing moved and a page is built in O(limit).
 * Entries are immutable once created, so each competition keeps an append-only column store and
 * a rebuild reads only the entries added since the last one (plus the small performance list).
 * Ranks, points and prizes are identical to `computeStandings` (lib/db/standings.ts).
 */
import { displayName, toCents } from "../domain/format.ts";
import type { Competition, Entry, PrizeStructure } from "../domain/types.ts";
import { getCompetition } from "../db/competitions.ts";
import { entriesAfter, getEntryIdsByTeamIds } from "../db/leaderboard_reads.ts";
import { getLiveVersion } from "../db/live.ts";
import { getPerformancesMap } from "../db/performances.ts";
import { listPrizes } from "../db/prizes.ts";
import type { LeaderboardRow } from "./types.ts";

export type { LeaderboardRow };

/** A Float64Array/Int32Array/Uint32Array at least `size` long, keeping the contents. */
function grow<T extends Float64Array | Int32Array | Uint32Array>(array: T, size: number): T {
  if (array.length >= size) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/**
 * Append-only columns of a competition's entries, in id order, in typed arrays: 100k entries
 * take a few MB (ids, picks, creation times) plus their team id and name strings.
 */
class EntryColumns {
  length = 0;
  lastId = 0;
  ids = new Float64Array(256);
  createdMs = new Float64Array(256);
  /** Picks of entry i are picks[pickStart[i] .. pickStart[i + 1]). */
  picks = new Int32Array(1280);
  pickStart = new Uint32Array(257);
  teamIds: string[] = [];
  teamNames: string[] = [];
  /** Entry indexes in tie-break order: createdAt, then id (as `computeStandings`). */
  tieList = new Uint32Array(0);

  /** Appends the entries created since the last call (`total`: how many there are now). */
  async catchUp(kv: Deno.Kv, cid: number, total: number): Promise<void> {
    const before = this.length;
    const fresh = entriesAfter(kv, cid, this.lastId, total - this.length);
    for await (const entry of fresh) this.#push(entry);
    if (this.length === before) return;
    this.lastId = this.ids[this.length - 1];
    this.#sortTies();
  }

  /** The index of entry `id`, or -1 (ids are ascending: binary search). */
  indexOf(id: number): number {
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.ids[mid] === id) return mid;
      if (this.ids[mid] < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  #push(entry: Entry): void {
    const i = this.length;
    this.ids = grow(this.ids, i + 1);
    this.createdMs = grow(this.createdMs, i + 1);
    this.pickStart = grow(this.pickStart, i + 2);
    const start = this.pickStart[i];
    this.picks = grow(this.picks, start + entry.playerIds.length);
    this.picks.set(entry.playerIds, start);
    this.pickStart[i + 1] = start + entry.playerIds.length;
    this.ids[i] = entry.id;
    this.createdMs[i] = Date.parse(entry.createdAt);
    this.teamIds.push(entry.teamId);
    this.teamNames.push(entry.teamName);
    this.length = i + 1;
  }

  #sortTies(): void {
    const list = new Uint32Array(this.length);
    for (let i = 0; i < list.length; i++) list[i] = i;
    const ms = this.createdMs;
    let ordered = true;
    for (let i = 1; i < list.length && ordered; i++) ordered = ms[i - 1] <= ms[i];
    if (!ordered) list.sort((a, b) => ms[a] - ms[b] || a - b);
    this.tieList = list;
  }
}

/** Points compared at 1 decimal, as `rankByPoints` does. */
function pointsKey(points: number): number {
  return Number.isFinite(points) ? Math.round(points * 10) : 0;
}

/** The award of a tied group: the cents each member gets, or the NON_CASH description. */
interface Awards {
  cents: Float64Array;
  descriptionByRank: Map<number, string>;
}

/** A ranked, immutable snapshot of one competition's leaderboard at one live version. */
export class Standings {
  constructor(
    readonly version: string | null,
    readonly competition: Competition,
    readonly prizes: PrizeStructure[],
    readonly total: number,
    /** FNV hash of status, prizes and every entry's points: equal while nothing visible moved. */
    readonly signature: string,
    private readonly cols: EntryColumns,
    private readonly points: Float64Array,
    private readonly order: Uint32Array,
    private readonly ranks: Uint32Array,
    private readonly positionOf: Uint32Array,
    private readonly awards: Awards | null,
  ) {}

  /** Whether any entry has more than 0 points. */
  get hasScorers(): boolean {
    return this.total > 0 && this.points[this.order[0]] > 0;
  }

  /** Rows at ranked positions [offset, offset + limit). */
  rows(offset: number, limit: number): LeaderboardRow[] {
    const end = Math.min(this.total, offset + limit);
    const out: LeaderboardRow[] = [];
    for (let pos = Math.max(0, offset); pos < end; pos++) out.push(this.#row(pos));
    return out;
  }

  /** The rows of these entry ids (unknown ones left out), by rank. */
  rowsForEntries(entryIds: Iterable<number>): LeaderboardRow[] {
    const positions = new Set<number>();
    for (const id of entryIds) {
      const index = this.cols.indexOf(id);
      if (index >= 0 && index < this.total) positions.add(this.positionOf[index]);
    }
    return [...positions].sort((a, b) => a - b).map((pos) => this.#row(pos));
  }

  #row(pos: number): LeaderboardRow {
    const index = this.order[pos];
    const rank = this.ranks[pos];
    const teamId = this.cols.teamIds[index];
    const teamName = this.cols.teamNames[index];
    return {
      id: this.cols.ids[index],
      teamId,
      teamName,
      displayName: displayName(teamName, teamId),
      points: this.points[index],
      rank,
      prize: this.awards ? this.awards.cents[pos] / 100 : null,
      prizeType: this.competition.prizeType,
      customPrizeDescription: this.awards?.descriptionByRank.get(rank) ?? null,
    };
  }
}

function entryPoints(cols: EntryColumns, perPlayer: Map<number, number>): Float64Array {
  const points = new Float64Array(cols.length);
  const { picks, pickStart } = cols;
  for (let i = 0; i < points.length; i++) {
    let sum = 0;
    for (let p = pickStart[i]; p < pickStart[i + 1]; p++) sum += perPlayer.get(picks[p]) ?? 0;
    points[i] = Math.round(sum * 10) / 10;
  }
  return points;
}

/** Entry indexes sorted by points (highest first), ties in the columns' tie order. */
function rankOrder(cols: EntryColumns, points: Float64Array): Uint32Array {
  const keysByIndex = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) keysByIndex[i] = pointsKey(points[i]);
  const tiePos = new Uint32Array(points.length);
  cols.tieList.forEach((index, pos) => tiePos[index] = pos);
  const order = cols.tieList.slice(0, points.length);
  return order.sort((a, b) => keysByIndex[b] - keysByIndex[a] || tiePos[a] - tiePos[b]);
}

/** Standard competition ranking (1, 2, 2, 4) of the sorted positions. */
function competitionRanks(order: Uint32Array, points: Float64Array): Uint32Array {
  const ranks = new Uint32Array(order.length);
  for (let pos = 0; pos < order.length; pos++) {
    const sameAsPrevious = pos > 0 &&
      pointsKey(points[order[pos]]) === pointsKey(points[order[pos - 1]]);
    ranks[pos] = sameAsPrevious ? ranks[pos - 1] : pos + 1;
  }
  return ranks;
}

/**
 * Prizes of a COMPLETED competition, as `splitPrizes` and `computeStandings`: a tie at rank r of
 * k entries shares places r..r+k-1 (cents floored, the rest one each to the earliest); NON_CASH
 * gets 0 and the description of the best place its group covers.
 */
function computeAwards(
  competition: Competition,
  prizes: PrizeStructure[],
  ranks: Uint32Array,
): Awards {
  const cents = new Float64Array(ranks.length);
  const descriptionByRank = new Map<number, string>();
  const cash = competition.prizeType !== "NON_CASH";
  const lastPlace = prizes.reduce((max, p) => Math.max(max, p.position), 0);
  let start = 0;
  while (start < ranks.length && ranks[start] <= lastPlace) {
    const rank = ranks[start];
    let end = start + 1;
    while (end < ranks.length && ranks[end] === rank) end++;
    const covered = prizes.filter((p) => p.position >= rank && p.position < rank + end - start);
    if (cash) {
      const pot = covered.reduce((sum, p) => sum + toCents(p.prize), 0);
      const share = Math.floor(pot / (end - start));
      const extra = pot - share * (end - start);
      for (let pos = start; pos < end; pos++) cents[pos] = share + (pos - start < extra ? 1 : 0);
    } else if (covered.length > 0) {
      const description = covered[0].customPrizeDescription ?? competition.customPrizeDescription;
      if (description !== null) descriptionByRank.set(rank, description);
    }
    start = end;
  }
  return { cents, descriptionByRank };
}

function fnv(hash: number, value: number): number {
  return Math.imul(hash ^ (value | 0), 16777619) >>> 0;
}

function signatureOf(competition: Competition, prizes: PrizeStructure[], points: Float64Array) {
  let hash = 2166136261;
  for (let i = 0; i < points.length; i++) hash = fnv(hash, pointsKey(points[i]));
  const prizeText = prizes.map((p) => `${p.position}=${p.prize}`).join(",");
  return `${competition.status}|${competition.prizeType}|${prizeText}|${points.length}|${hash}`;
}

/** Builds the ranked snapshot from the entry columns and the player points. */
function rankStandings(
  version: string | null,
  competition: Competition,
  prizes: PrizeStructure[],
  cols: EntryColumns,
  perPlayer: Map<number, number>,
): Standings {
  const points = entryPoints(cols, perPlayer);
  const order = rankOrder(cols, points);
  const ranks = competitionRanks(order, points);
  const positionOf = new Uint32Array(order.length);
  order.forEach((index, pos) => positionOf[index] = pos);
  const awards = competition.status === "COMPLETED"
    ? computeAwards(competition, prizes, ranks)
    : null;
  const signature = signatureOf(competition, prizes, points);
  return new Standings(
    version,
    competition,
    prizes,
    points.length,
    signature,
    cols,
    points,
    order,
    ranks,
    positionOf,
    awards,
  );
}

interface Slot {
  cols: EntryColumns;
  current: Standings | null;
  pending: { version: string | null; promise: Promise<Standings | null> } | null;
  /** Rebuilds run one after another, so the columns are appended to by one at a time. */
  queue: Promise<unknown>;
}

const DEFAULT_MAX_COMPETITIONS = 100;

/** Ranked standings per competition for one KV store, rebuilt only when the live key moves. */
export class LeaderboardCache {
  readonly #kv: Deno.Kv;
  readonly #max: number;
  readonly #slots = new Map<number, Slot>();

  constructor(kv: Deno.Kv, options: { maxCompetitions?: number } = {}) {
    this.#kv = kv;
    this.#max = options.maxCompetitions ?? DEFAULT_MAX_COMPETITIONS;
  }

  /** The current standings of a competition; null when it does not exist. */
  async standings(cid: number): Promise<Standings | null> {
    return await this.standingsAt(cid, await getLiveVersion(this.#kv, cid));
  }

  /** The standings at (at least) live version `version`, rebuilt unless already cached. */
  standingsAt(cid: number, version: string | null): Promise<Standings | null> {
    const slot = this.#touch(cid);
    if (slot.current && slot.current.version === version) return Promise.resolve(slot.current);
    if (slot.pending && slot.pending.version === version) return slot.pending.promise;
    const promise = slot.queue.then(() => this.#rebuild(cid, slot, version));
    slot.queue = promise.catch(() => undefined);
    slot.pending = { version, promise };
    const clear = () => {
      if (slot.pending?.promise === promise) slot.pending = null;
    };
    promise.then(clear, clear);
    return promise;
  }

  /** The rows of these team ids in `standings` (unknown ones left out), by rank. */
  async rowsForTeams(standings: Standings, teamIds: string[]): Promise<LeaderboardRow[]> {
    if (teamIds.length === 0) return [];
    return standings.rowsForEntries(await getEntryIdsByTeamIds(this.#kv, teamIds));
  }

  /** Forgets every cached competition. */
  clear(): void {
    this.#slots.clear();
  }

  async #rebuild(cid: number, slot: Slot, version: string | null): Promise<Standings | null> {
    if (slot.current && slot.current.version === version) return slot.current;
    const [competition, prizes, performances] = await Promise.all([
      getCompetition(this.#kv, cid),
      listPrizes(this.#kv, cid),
      getPerformancesMap(this.#kv, cid),
    ]);
    if (!competition) {
      if (this.#slots.get(cid) === slot) this.#slots.delete(cid);
      return null;
    }
    await slot.cols.catchUp(this.#kv, cid, competition.currentEntries);
    const perPlayer = new Map([...performances].map(([id, p]) => [id, p.totalPoints]));
    slot.current = rankStandings(version, competition, prizes, slot.cols, perPlayer);
    return slot.current;
  }

  #touch(cid: number): Slot {
    const slot = this.#slots.get(cid) ??
      { cols: new EntryColumns(), current: null, pending: null, queue: Promise.resolve() };
    this.#slots.delete(cid);
    this.#slots.set(cid, slot);
    if (this.#slots.size > this.#max) this.#slots.delete(this.#slots.keys().next().value!);
    return slot;
  }
}

const caches = new WeakMap<Deno.Kv, LeaderboardCache>();

/** The process-wide leaderboard cache of a KV store. */
export function getLeaderboardCache(kv: Deno.Kv): LeaderboardCache {
  let cache = caches.get(kv);
  if (!cache) {
    cache = new LeaderboardCache(kv);
    caches.set(kv, cache);
  }
  return cache;
}
