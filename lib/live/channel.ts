/**
 * One followed competition of the live hub: its sockets, one `kv.watch` of `["live", cid]`, and
 * the refresh that re-reads the events and standings when the live versionstamp moves. Each
 * update is serialised once and the same string is sent to every socket.
 */
import { listGameEvents } from "@/lib/db/events.ts";
import { keys } from "@/lib/db/keys.ts";
import type { LeaderboardCache } from "./leaderboard_cache.ts";
import { errorMessage, send } from "./socket_io.ts";

export interface ChannelDeps {
  kv: Deno.Kv;
  cache: LeaderboardCache;
  /** How many of the newest events a `game_events_update` carries. */
  eventLimit: number;
  /** Called once the channel ended because its competition is gone (after telling the sockets). */
  onGone(channel: Channel, sockets: WebSocket[]): void;
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
  readonly sockets = new Set<WebSocket>();
  /** Live versionstamp the last refresh started from (undefined before the first). */
  version: string | null | undefined = undefined;
  /** Set while the channel has no socket: it closes when this fires unless one joins first. */
  releaseTimer: ReturnType<typeof setTimeout> | null = null;
  #eventsMessage: string | null = null;
  #signature: string | null = null;
  #reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null = null;
  #closed = false;
  readonly #events = new Coalesced(() => this.#refreshEvents(), (err) => this.#failed(err));
  readonly #standings = new Coalesced(() => this.#refreshStandings(), (err) => this.#failed(err));

  constructor(readonly cid: number, private readonly deps: ChannelDeps) {}

  #failed(err: unknown): void {
    if (!this.#closed) console.error(`live hub: refresh of competition ${this.cid}`, err);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Adds a socket (cancelling a pending release) and sends it the current events at once. */
  subscribe(socket: WebSocket): void {
    if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
    this.sockets.add(socket);
    if (this.#eventsMessage) send(socket, this.#eventsMessage);
  }

  /** Follows `["live", cid]` in this process; every new versionstamp triggers a refresh. */
  watch(): void {
    const reader = this.deps.kv.watch([keys.live(this.cid)]).getReader();
    this.#reader = reader;
    (async () => {
      while (!this.#closed) {
        const { value, done } = await reader.read();
        if (done) return;
        if (value[0].versionstamp !== this.version) this.refresh();
      }
    })().catch(() => {
      // The stream ends with an error when the store closes; polling covers anything missed.
    });
  }

  /**
   * Re-reads the events, then the standings. Each runs on its own (calls during a run coalesce
   * into one more), so a slow standings rebuild of a big competition never holds back the events
   * of the next change.
   */
  refresh(): void {
    if (!this.#closed) this.#events.trigger();
  }

  async #refreshEvents(): Promise<void> {
    const { kv, eventLimit } = this.deps;
    const live = await kv.get(keys.live(this.cid));
    this.version = live.versionstamp;
    const events = await listGameEvents(kv, this.cid, { limit: eventLimit });
    if (this.#closed) return;
    const message = JSON.stringify({
      type: "game_events_update",
      competitionId: this.cid,
      data: events,
    });
    if (message !== this.#eventsMessage) {
      this.#eventsMessage = message;
      this.broadcast(message);
    }
    this.#standings.trigger();
  }

  async #refreshStandings(): Promise<void> {
    const standings = await this.deps.cache.standingsAt(this.cid, this.version ?? null);
    if (this.#closed) return;
    if (!standings) return this.#end("Competition not found");
    const moved = this.#signature !== null && this.#signature !== standings.signature;
    this.#signature = standings.signature;
    if (moved) {
      this.broadcast(JSON.stringify({ type: "leaderboard_update", competitionId: this.cid }));
    }
  }

  broadcast(message: string): void {
    for (const socket of this.sockets) send(socket, message);
  }

  /** Tells the sockets why the channel ends (the competition is gone) and hands them back. */
  #end(reason: string): void {
    this.broadcast(errorMessage(reason));
    this.deps.onGone(this, [...this.sockets]);
  }

  /** Stops the watch and the timer, drops the sockets and waits for a running refresh. */
  async close(): Promise<void> {
    this.#closed = true;
    this.sockets.clear();
    if (this.releaseTimer !== null) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
    await this.#reader?.cancel().catch(() => undefined);
    await Promise.all([this.#events.running, this.#standings.running]);
  }
}
