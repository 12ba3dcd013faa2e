/**
 * One followed competition of the live hub: its sockets (join and leave), and the refresh that
 * re-reads the events and standings when its live versionstamp moves (`versionChanged`, the only
 * way a change comes in). The events it sent are reused: a refresh lists the event records and
 * reads players and clubs only for events it has not sent yet. Each update is serialised once into one `Outgoing` that every socket
 * gets. A channel outlives its last socket by `graceMs`, so join/leave churn keeps its watch.
 */
import { type GameEventWithPlayer, listEventRecords, withPlayers } from "@/lib/db/events.ts";
import type { LeaderboardCache } from "./leaderboard_cache.ts";
import { errorMessage, type LiveSocket, Outgoing } from "./socket_io.ts";

export interface ChannelDeps {
  kv: Deno.Kv;
  cache: LeaderboardCache;
  /** How many of the newest events a `game_events_update` carries. */
  eventLimit: number;
  /** How long the channel stays after its last socket left (ms). */
  graceMs: number;
  /** Longest a changed events message waits for the standings hint to go out with it (ms). */
  hintWaitMs: number;
  /** The channel has had no socket for `graceMs`: close it. */
  onIdle(channel: Channel): void;
  /** The competition is gone: the sockets were told; they no longer follow it. */
  onGone(channel: Channel, sockets: LiveSocket[]): void;
}

/** Runs `task` now, or once more after the current run when triggered meanwhile. */
class Coalesced {
  running: Promise<void> | null = null;
  #again = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  trigger(): void {
    if (this.running) {
      this.#again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.#again = false;
        await this.task();
      } while (this.#again);
    })().catch(this.onError).finally(() => this.running = null);
  }
}

export class Channel {
  readonly sockets = new Set<LiveSocket>();
  /** The live versionstamp the next refresh reads at (undefined before the first). */
  #version: string | null | undefined = undefined;
  #idleTimer: ReturnType<typeof setTimeout> | null = null;
  #events: Outgoing | null = null;
  /** The events last sent (events never change once written: only added or deleted). */
  #sent: GameEventWithPlayer[] = [];
  #sentIds = "";
  #signature: string | null = null;
  /** Set while a refreshed events message waits (briefly) to take the standings hint along. */
  #takeHint: ((hint: Outgoing | null) => void) | null = null;
  #closed = false;
  readonly #eventsRefresh = new Coalesced(() => this.#refreshEvents(), (e) => this.#failed(e));
  readonly #standingsRefresh = new Coalesced(
    () => this.#refreshStandings(),
    (e) => this.#failed(e),
  );

  constructor(readonly cid: number, private readonly deps: ChannelDeps) {}

  /** Adds a socket (cancelling a pending close) and sends it the current events at once. */
  join(socket: LiveSocket): void {
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    this.sockets.add(socket);
    if (this.#events) socket.send(this.#events);
  }

  /** Removes a socket; the last one leaving starts the grace period, not the end. */
  leave(socket: LiveSocket): void {
    if (!this.sockets.delete(socket) || this.sockets.size > 0 || this.#closed) return;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      this.deps.onIdle(this);
    }, this.deps.graceMs);
  }

  /**
   * The live versionstamp moved: re-reads the events, then the standings. Each runs on its own
   * (calls during a run coalesce into one more), so a slow standings rebuild of a big
   * competition never holds back the events of the next change.
   */
  versionChanged(versionstamp: string | null): void {
    this.#version = versionstamp;
    if (!this.#closed) this.#eventsRefresh.trigger();
  }

  #failed(err: unknown): void {
    if (!this.#closed) console.error(`live hub: refresh of competition ${this.cid}`, err);
  }

  async #refreshEvents(): Promise<void> {
    const { kv, eventLimit } = this.deps;
    const records = await listEventRecords(kv, this.cid, { limit: eventLimit });
    const ids = records.map((e) => e.id).join(",");
    if (this.#closed) return;
    if (this.#events && ids === this.#sentIds) return this.#standingsRefresh.trigger();
    // Only the events not sent before are described (their players and clubs read).
    const sent = new Map(this.#sent.map((e) => [e.id, e]));
    const described = new Map(
      (await withPlayers(kv, records.filter((e) => !sent.has(e.id)))).map((e) => [e.id, e]),
    );
    if (this.#closed) return;
    const events = records.map((e) => sent.get(e.id) ?? described.get(e.id)!);
    this.#sent = events;
    this.#sentIds = ids;
    this.#events = new Outgoing(
      JSON.stringify({ type: "game_events_update", competitionId: this.cid, data: events }),
    );
    // The standings usually follow within milliseconds; their hint then goes out in the same
    // write as the events (half the writes per socket), and never holds the events back longer.
    const hint = new Promise<Outgoing | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), this.deps.hintWaitMs);
      this.#takeHint = (hint) => (clearTimeout(timer), resolve(hint));
    });
    this.#standingsRefresh.trigger();
    const along = await hint;
    this.#takeHint = null;
    if (this.#closed) return;
    this.#broadcast(along ? Outgoing.join(this.#events, along) : this.#events);
  }

  async #refreshStandings(): Promise<void> {
    const standings = await this.deps.cache.standingsAt(this.cid, this.#version ?? null);
    if (this.#closed) return;
    if (!standings) return this.#end("Competition not found");
    const moved = this.#signature !== null && this.#signature !== standings.signature;
    this.#signature = standings.signature;
    const hint = moved
      ? new Outgoing(JSON.stringify({ type: "leaderboard_update", competitionId: this.cid }))
      : null;
    if (this.#takeHint) return this.#takeHint(hint);
    if (hint) this.#broadcast(hint);
  }

  #broadcast(message: Outgoing): void {
    for (const socket of this.sockets) socket.send(message);
  }

  /** Tells the sockets why the channel ends (the competition is gone) and hands them back. */
  #end(reason: string): void {
    this.#broadcast(errorMessage(reason));
    this.deps.onGone(this, [...this.sockets]);
  }

  /** Drops the sockets and the timer and waits for a running refresh. */
  async close(): Promise<void> {
    this.#closed = true;
    this.sockets.clear();
    if (this.#idleTimer !== null) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    await Promise.all([this.#eventsRefresh.running, this.#standingsRefresh.running]);
  }
}
