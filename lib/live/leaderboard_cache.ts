/**
 * In-process cache of ranked standings per competition, keyed by the versionstamp of
 * `["live", cid]`: every entry, performance, event, prize or competition change bumps that key,
 * so a request costs one `kv.get` while nothing moved and a page is built in O(limit).
 * Each competition's entries come from its roster (lib/store/roster.ts): a fresh isolate reads a
 * few hundred packed chunks, later rebuilds only what was added since. Ranks, points and prizes
 * come from the one standings engine (lib/domain/standings.ts), as `computeStandings` does.
 * Nothing here can disagree with KV for long: a snapshot is only reused for the live version it
 * was built at, and only until the next scheduled kick-off of its matches (which moves acting
 * captains and picks still to play with no write to the store).
 */
import {
  actingCaptain,
  captainMultiplierOf,
  type CaptainScoring,
  captainScoring,
} from "@/lib/domain/captain.ts";
import {
  type MatchPhase,
  type PickClock,
  picksToPlay,
  scoredPoints,
} from "@/lib/domain/match_clock.ts";
import { displayName, distinctName, nameKey } from "@/lib/domain/format.ts";
import { pointsKey } from "@/lib/domain/ranking.ts";
import { type RankedStandings, rankStandings, tieOrder } from "@/lib/domain/standings.ts";
import type { Competition, PrizeStructure } from "@/lib/domain/types.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import { getEntryIdsByTeamIds } from "@/lib/store/leaderboard_reads.ts";
import { getLiveVersion } from "@/lib/store/live.ts";
import { getPerformancesMap } from "@/lib/db/performances.ts";
import { getPickClock } from "@/lib/db/pick_clock.ts";
import { getPlayersByIds } from "@/lib/db/players.ts";
import { listPrizes } from "@/lib/db/prizes.ts";
import { backfillRoster, type RosterColumns, RosterReader } from "@/lib/store/roster.ts";
import type { LeaderboardRow } from "@/lib/domain/live.ts";

export type { LeaderboardRow };

/** The shared display names of a roster, with the roster state they were found at (one per slot). */
interface SharedNames {
  known: { appends: number; total: number; shared: Set<string> } | null;
}

/** A ranked, immutable snapshot of one competition's leaderboard at one live version. */
export class Standings {
  readonly total: number;
  /** Ranked position of each entry index, built on the first team lookup. */
  #positionOf: Int32Array | null = null;

  constructor(
    readonly version: string | null,
    readonly competition: Competition,
    readonly prizes: PrizeStructure[],
    /** FNV hash of status, prizes and every entry's points: equal while nothing visible moved. */
    readonly signature: string,
    private readonly cols: RosterColumns,
    private readonly ranked: RankedStandings,
    private readonly names: SharedNames,
    /** Player names of the entries' captains and vice-captains; null: rows name none. */
    private readonly captainNames: ReadonlyMap<number, string> | null = null,
    /** Where each pick's match stood when this snapshot was built. */
    readonly clock: PickClock | null = null,
    private readonly captain: CaptainScoring | null = null,
  ) {
    this.total = ranked.order.length;
  }

  /**
   * Whether the snapshot still shows the matches as they stand at `nowMs`: a scheduled kick-off
   * moves a phase with no write to the store, so the snapshot is built again after it.
   */
  currentAt(nowMs: number): boolean {
    return !this.clock || nowMs < this.clock.nextChangeMs;
  }

  #ownership: Map<number, number> | null = null;
  #sharedNames: Set<string> | null = null;

  /**
   * The `nameKey`s of the display names two or more of this snapshot's entries share. Found once
   * per roster state (snapshots of new points share it), not once per snapshot.
   */
  #shared(): Set<string> {
    if (this.#sharedNames) return this.#sharedNames;
    const known = this.names.known;
    if (known && known.appends === this.cols.appends && known.total === this.total) {
      return this.#sharedNames = known.shared;
    }
    const seen = new Set<string>();
    const shared = new Set<string>();
    for (const i of this.ranked.order) {
      const key = nameKey(displayName(this.cols.teamName(i), this.cols.teamId(i)));
      if (seen.has(key)) shared.add(key);
      else seen.add(key);
    }
    this.names.known = { appends: this.cols.appends, total: this.total, shared };
    return this.#sharedNames = shared;
  }

  /**
   * The share of this snapshot's entries that picked each player (0..1), by player id; players
   * nobody picked are absent.
   */
  ownership(): ReadonlyMap<number, number> {
    if (this.#ownership) return this.#ownership;
    const counts = new Map<number, number>();
    const { picks, pickStart } = this.cols;
    for (const i of this.ranked.order) {
      for (let p = pickStart[i]; p < pickStart[i + 1]; p++) {
        counts.set(picks[p], (counts.get(picks[p]) ?? 0) + 1);
      }
    }
    for (const [id, n] of counts) counts.set(id, n / this.total);
    return this.#ownership = counts;
  }

  /** Whether any entry has more than 0 points. */
  get hasScorers(): boolean {
    return this.total > 0 && this.ranked.points[this.ranked.order[0]] > 0;
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
    if (!this.#positionOf) {
      // By entry index; -1: a withdrawn entry, or one appended after this snapshot.
      this.#positionOf = new Int32Array(this.ranked.points.length).fill(-1);
      for (let pos = 0; pos < this.total; pos++) this.#positionOf[this.ranked.order[pos]] = pos;
    }
    for (const id of entryIds) {
      const index = this.cols.indexOf(id);
      const pos = index >= 0 && index < this.#positionOf.length ? this.#positionOf[index] : -1;
      if (pos >= 0) positions.add(pos);
    }
    return [...positions].sort((a, b) => a - b).map((pos) => this.#row(pos));
  }

  #row(pos: number): LeaderboardRow {
    const { order, ranks, points, awards } = this.ranked;
    const index = order[pos];
    const rank = ranks[pos];
    const teamId = this.cols.teamId(index);
    const teamName = this.cols.teamName(index);
    const name = displayName(teamName, teamId);
    const row: LeaderboardRow = {
      id: this.cols.ids[index],
      teamId,
      teamName,
      // Entries sharing a name (made before names were unique per contest) are told apart.
      displayName: this.#shared().has(nameKey(name)) ? distinctName(name, teamId) : name,
      points: points[index],
      rank,
      prize: awards ? awards.cents[pos] / 100 : null,
      prizeType: this.competition.prizeType,
      customPrizeDescription: awards?.descriptionByRank.get(rank) ?? null,
    };
    if (this.captainNames) {
      const captain = this.captainNames.get(this.cols.captains[index]);
      const vice = this.captainNames.get(this.cols.vices[index]);
      if (captain) row.captainName = captain;
      if (vice) row.viceCaptainName = vice;
      this.#acting(row, index);
    }
    if (this.clock && this.competition.status !== "UPCOMING") {
      const { picks, pickStart } = this.cols;
      row.picksToPlay = picksToPlay(
        picks.subarray(pickStart[index], pickStart[index + 1]),
        this.clock,
      );
    }
    return row;
  }

  /**
   * The row's acting captain (lib/domain/captain.ts), once his match has kicked off: before, the
   * name would tell others a pick that has not locked yet.
   */
  #acting(row: LeaderboardRow, index: number): void {
    if (!this.captain || !this.clock) return;
    const captainId = this.cols.captains[index];
    const acting = actingCaptain(captainId, this.cols.vices[index], this.captain);
    const name = acting ? this.captainNames?.get(acting) : undefined;
    if (!name || !shownPhase(this.clock.phaseOf(acting), this.clock.settled)) return;
    row.actingCaptainName = name;
    row.actingCaptainRole = acting === captainId ? "C" : "V";
  }
}

/**
 * The names of the players the first `length` entries made captain or vice-captain, once the
 * competition has kicked off (before, other teams' choices stay hidden, as their picks do);
 * null for competitions without captains.
 */
async function captainNamesOf(
  kv: Deno.Kv,
  competition: Competition,
  cols: RosterColumns,
  length: number,
): Promise<Map<number, string> | null> {
  if (captainMultiplierOf(competition) === null || competition.status === "UPCOMING") return null;
  const ids = new Set<number>();
  for (let i = 0; i < length; i++) {
    if (cols.captains[i]) ids.add(cols.captains[i]);
    if (cols.vices[i]) ids.add(cols.vices[i]);
  }
  const players = ids.size === 0 ? [] : await getPlayersByIds(kv, ids);
  return new Map(players.map((p) => [p.id, p.name]));
}

/** Whether a pick in `phase` may be named to others: its match kicked off, or the contest is over. */
function shownPhase(phase: MatchPhase, settled: boolean): boolean {
  return phase === "IN_PLAY" || phase === "FULL_TIME" || settled;
}

function fnv(hash: number, value: number): number {
  return Math.imul(hash ^ (value | 0), 16777619) >>> 0;
}

function signatureOf(
  competition: Competition,
  prizes: PrizeStructure[],
  points: Float64Array,
  clock: PickClock,
) {
  let hash = 2166136261;
  for (let i = 0; i < points.length; i++) hash = fnv(hash, pointsKey(points[i]));
  const prizeText = prizes.map((p) => `${p.position}=${p.prize}`).join(",");
  // The clock's key: a match reaching full time moves acting captains and picks to play.
  return `${competition.status}|${competition.prizeType}|${prizeText}|${points.length}|${hash}|${clock.key}`;
}

/** A frozen view of the first `length` entries of the growing columns. */
function firstEntries(cols: RosterColumns, length: number) {
  return {
    length,
    ids: cols.ids,
    createdMs: cols.createdMs,
    picks: cols.picks,
    pickStart: cols.pickStart,
    captains: cols.captains,
    vices: cols.vices,
  };
}

interface Slot {
  roster: RosterReader;
  /** Tie order of the first `tiesFor` entries (recomputed only when entries were added). */
  ties: Uint32Array;
  /** When this isolate last repaired the roster (ms since the epoch; 0: never). */
  repairedAt: number;
  current: Standings | null;
  pending: { version: string | null; promise: Promise<Standings | null> } | null;
  /** Rebuilds run one after another, so the columns are appended to by one at a time. */
  queue: Promise<unknown>;
  /** The roster's shared display names, found once per roster state (see `Standings`). */
  names: SharedNames;
}

const DEFAULT_MAX_COMPETITIONS = 100;
const REPAIR_EVERY_MS = 10 * 60_000;

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
    if (slot.current && slot.current.version === version && slot.current.currentAt(Date.now())) {
      return Promise.resolve(slot.current);
    }
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
    if (slot.current && slot.current.version === version && slot.current.currentAt(Date.now())) {
      return slot.current;
    }
    const [competition, prizes, performances] = await Promise.all([
      getCompetition(this.#kv, cid),
      listPrizes(this.#kv, cid),
      getPerformancesMap(this.#kv, cid),
    ]);
    if (!competition) {
      if (this.#slots.get(cid) === slot) this.#slots.delete(cid);
      return null;
    }
    await slot.roster.catchUp(this.#kv, cid);
    if (slot.roster.columns.length < competition.currentEntries && this.#mayRepair(slot)) {
      // Entries are counted in the atomic that writes them and their roster records, so fewer
      // records than the count read before means one was written without its record.
      console.warn(`leaderboard: the roster of competition ${cid} misses entries; repairing it`);
      await backfillRoster(this.#kv, cid, true);
      await slot.roster.catchUp(this.#kv, cid);
    }
    const cols = slot.roster.columns;
    const view = firstEntries(cols, cols.length);
    if (slot.ties.length !== view.length) slot.ties = tieOrder(view);
    // Entries refunded on their own stay in the roster but are left out of the ranking.
    const withdrawn = slot.roster.withdrawn;
    const ties = withdrawn.size === 0
      ? slot.ties
      : slot.ties.filter((i) => !withdrawn.has(cols.ids[i]));
    const clock = await getPickClock(this.#kv, competition);
    const perPlayer = scoredPoints(performances, clock);
    const rules = competition.status === "COMPLETED" ? { ...competition, prizes } : null;
    const captain = captainScoring(competition, performances, clock);
    const ranked = rankStandings(view, perPlayer, rules, ties, captain);
    const signature = `${
      signatureOf(competition, prizes, ranked.points, clock)
    }|${ranked.order.length}`;
    const captainNames = await captainNamesOf(this.#kv, competition, cols, view.length);
    slot.current = new Standings(
      version,
      competition,
      prizes,
      signature,
      cols,
      ranked,
      slot.names,
      captainNames,
      clock,
      captain,
    );
    return slot.current;
  }

  /** At most one roster repair per competition and isolate every REPAIR_EVERY_MS. */
  #mayRepair(slot: Slot): boolean {
    if (Date.now() - slot.repairedAt < REPAIR_EVERY_MS) return false;
    slot.repairedAt = Date.now();
    return true;
  }

  #touch(cid: number): Slot {
    const slot = this.#slots.get(cid) ??
      {
        roster: new RosterReader(),
        ties: new Uint32Array(0),
        repairedAt: 0,
        current: null,
        pending: null,
        queue: Promise.resolve(),
        names: { known: null },
      };
    this.#slots.delete(cid);
    this.#slots.set(cid, slot);
    if (this.#slots.size > this.#max) this.#slots.delete(this.#slots.keys().next().value!);
    return slot;
  }
}
