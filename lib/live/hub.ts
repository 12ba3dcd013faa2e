/**
 * The live hub behind /ws (SPEC §7 "Live push", ARCHITECTURE §4-5). A socket joins a competition
 * with `{type: "join", competitionId}` and gets the current `game_events_update` at once, again on
 * every change of the events, and a `leaderboard_update` hint when standings move.
 *
 * One `kv.watch` of `["live", cid]` per competition per process is shared by all its sockets; as
 * watch does not fire for writes of other processes on a local SQLite file, the hub also re-reads
 * the live versionstamps of its competitions every `pollMs`. Each update is serialised once and
 * the same string is sent to every socket. Timers run only while sockets are connected.
 */
import { getCompetition } from "../db/competitions.ts";
import { listGameEvents } from "../db/events.ts";
import { keys } from "../db/keys.ts";
import { getManyEntries } from "../db/util.ts";
import { wsClientMessageSchema } from "../domain/schemas.ts";
import { services } from "../services.ts";
import { getLeaderboardCache, type LeaderboardCache } from "./leaderboard_cache.ts";

export interface LiveHubOptions {
  /** How often the live versionstamps are re-read for changes of other processes (ms). */
  pollMs?: number;
  /** How often every socket gets a `{type: "ping"}` heartbeat (ms). */
  heartbeatMs?: number;
  /** How many of the newest events a `game_events_update` carries. */
  eventLimit?: number;
}

export interface LiveHubStats {
  sockets: number;
  competitions: number;
}

export interface LiveHub {
  readonly kv: Deno.Kv;
  /** Serves one WebSocket (from `Deno.upgradeWebSocket`) until it or the hub closes. */
  accept(socket: WebSocket): void;
  /** Connected sockets and watched competitions. */
  stats(): LiveHubStats;
  /** Closes every socket (1001), stops the watches and timers, waits for running refreshes. */
  close(): Promise<void>;
}

/** Most competitions one socket may follow at a time. */
export const MAX_JOINS_PER_SOCKET = 10;
/** Largest client message accepted, in characters. */
export const MAX_MESSAGE_CHARS = 1024;
const DEFAULTS = { pollMs: 2000, heartbeatMs: 25_000, eventLimit: 50 };
const PING = JSON.stringify({ type: "ping" });
const PONG = JSON.stringify({ type: "pong" });
const CLOSE_WAIT_MS = 1000;

interface Channel {
  cid: number;
  sockets: Set<WebSocket>;
  /** Live versionstamp the last refresh started from (undefined before the first). */
  version: string | null | undefined;
  eventsMessage: string | null;
  signature: string | null;
  reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null;
  running: Promise<void> | null;
  dirty: boolean;
  closed: boolean;
}

function errorMessage(message: string): string {
  return JSON.stringify({ type: "error", message });
}

function send(socket: WebSocket, message: string): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  try {
    socket.send(message);
  } catch {
    // The peer went away between the state check and the send; its close event cleans up.
  }
}

class Hub implements LiveHub {
  readonly kv: Deno.Kv;
  readonly #options: Required<LiveHubOptions>;
  readonly #cache: LeaderboardCache;
  readonly #sockets = new Map<WebSocket, Set<number>>();
  readonly #channels = new Map<number, Channel>();
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #poll: ReturnType<typeof setInterval> | null = null;
  #polling = false;
  #closed = false;

  constructor(kv: Deno.Kv, options: LiveHubOptions) {
    this.kv = kv;
    this.#options = { ...DEFAULTS, ...options };
    this.#cache = getLeaderboardCache(kv);
  }

  get closed(): boolean {
    return this.#closed;
  }

  accept(socket: WebSocket): void {
    if (this.#closed) {
      socket.onopen = () => socket.close(1001, "Server shutting down");
      return;
    }
    this.#sockets.set(socket, new Set());
    socket.onmessage = (event) => void this.#onMessage(socket, event.data);
    socket.onclose = () => this.#drop(socket);
    socket.onerror = () => this.#drop(socket);
    this.#heartbeat ??= setInterval(() => this.#beat(), this.#options.heartbeatMs);
  }

  stats(): LiveHubStats {
    return { sockets: this.#sockets.size, competitions: this.#channels.size };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (current === this) current = null;
    const closing = [...this.#sockets.keys()].map((socket) => this.#closeSocket(socket));
    const running = [...this.#channels.values()].map((channel) => this.#closeChannel(channel));
    this.#sockets.clear();
    this.#stopTimers();
    await Promise.all([...closing, ...running]);
  }

  async #onMessage(socket: WebSocket, data: unknown): Promise<void> {
    if (typeof data !== "string") return send(socket, errorMessage("Messages must be JSON text"));
    if (data.length > MAX_MESSAGE_CHARS) return send(socket, errorMessage("Message too large"));
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      return send(socket, errorMessage("Invalid JSON message"));
    }
    const parsed = wsClientMessageSchema.safeParse(raw);
    if (!parsed.success) {
      return send(socket, errorMessage(parsed.error.issues[0]?.message ?? "Invalid message"));
    }
    const message = parsed.data;
    if (message.type === "ping") return send(socket, PONG);
    if (message.type === "leave") return this.#leave(socket, message.competitionId);
    await this.#join(socket, message.competitionId);
  }

  async #join(socket: WebSocket, cid: number): Promise<void> {
    const joined = this.#sockets.get(socket);
    if (!joined || joined.has(cid)) return;
    if (joined.size >= MAX_JOINS_PER_SOCKET) {
      return send(
        socket,
        errorMessage(`A connection may follow at most ${MAX_JOINS_PER_SOCKET} competitions`),
      );
    }
    joined.add(cid);
    const existing = this.#channels.get(cid);
    if (existing) {
      existing.sockets.add(socket);
      if (existing.eventsMessage) send(socket, existing.eventsMessage);
      return;
    }
    const competition = await getCompetition(this.kv, cid);
    if (!this.#sockets.get(socket)?.has(cid)) return;
    if (!competition) {
      joined.delete(cid);
      return send(socket, errorMessage("Competition not found"));
    }
    const channel = this.#channels.get(cid) ?? this.#openChannel(cid);
    channel.sockets.add(socket);
    if (channel.eventsMessage) send(socket, channel.eventsMessage);
  }

  #leave(socket: WebSocket, cid: number): void {
    this.#sockets.get(socket)?.delete(cid);
    const channel = this.#channels.get(cid);
    if (!channel) return;
    channel.sockets.delete(socket);
    if (channel.sockets.size === 0) void this.#closeChannel(channel);
  }

  #drop(socket: WebSocket): void {
    const joined = this.#sockets.get(socket);
    if (!joined) return;
    for (const cid of joined) this.#leave(socket, cid);
    this.#sockets.delete(socket);
    if (this.#sockets.size === 0) this.#stopTimers();
  }

  #openChannel(cid: number): Channel {
    const channel: Channel = {
      cid,
      sockets: new Set(),
      version: undefined,
      eventsMessage: null,
      signature: null,
      reader: null,
      running: null,
      dirty: false,
      closed: false,
    };
    this.#channels.set(cid, channel);
    this.#watch(channel);
    this.#poll ??= setInterval(() => void this.#pollVersions(), this.#options.pollMs);
    return channel;
  }

  /** Follows `["live", cid]` in this process; every new versionstamp triggers a refresh. */
  #watch(channel: Channel): void {
    const reader = this.kv.watch([keys.live(channel.cid)]).getReader();
    channel.reader = reader;
    (async () => {
      while (!channel.closed) {
        const { value, done } = await reader.read();
        if (done) return;
        if (value[0].versionstamp !== channel.version) this.#refresh(channel);
      }
    })().catch(() => {
      // The stream ends with an error when the store closes; polling covers anything missed.
    });
  }

  async #pollVersions(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const channels = [...this.#channels.values()];
      const entries = await getManyEntries(this.kv, channels.map((c) => keys.live(c.cid)));
      channels.forEach((channel, i) => {
        if (entries[i].versionstamp !== channel.version) this.#refresh(channel);
      });
    } catch (err) {
      if (!this.#closed) console.error("live hub: polling failed", err);
    } finally {
      this.#polling = false;
    }
  }

  /** Re-reads a channel's events and standings; calls during a refresh coalesce into one more. */
  #refresh(channel: Channel): void {
    if (channel.closed) return;
    if (channel.running) {
      channel.dirty = true;
      return;
    }
    channel.running = (async () => {
      do {
        channel.dirty = false;
        await this.#refreshOnce(channel);
      } while (channel.dirty && !channel.closed);
    })().catch((err) => {
      if (!channel.closed) console.error(`live hub: refresh of competition ${channel.cid}`, err);
    }).finally(() => channel.running = null);
  }

  async #refreshOnce(channel: Channel): Promise<void> {
    const { cid } = channel;
    const live = await this.kv.get(keys.live(cid));
    channel.version = live.versionstamp;
    const events = await listGameEvents(this.kv, cid, { limit: this.#options.eventLimit });
    if (channel.closed) return;
    const message = JSON.stringify({
      type: "game_events_update",
      competitionId: cid,
      data: events,
    });
    if (message !== channel.eventsMessage) {
      channel.eventsMessage = message;
      this.#broadcast(channel, message);
    }
    const standings = await this.#cache.standingsAt(cid, live.versionstamp);
    if (channel.closed) return;
    if (!standings) return this.#endChannel(channel, "Competition not found");
    const moved = channel.signature !== null && channel.signature !== standings.signature;
    channel.signature = standings.signature;
    if (moved) {
      this.#broadcast(channel, JSON.stringify({ type: "leaderboard_update", competitionId: cid }));
    }
  }

  #broadcast(channel: Channel, message: string): void {
    for (const socket of channel.sockets) send(socket, message);
  }

  /** Tells the sockets why the channel ends (the competition is gone) and closes it. */
  #endChannel(channel: Channel, reason: string): void {
    this.#broadcast(channel, errorMessage(reason));
    for (const socket of channel.sockets) this.#sockets.get(socket)?.delete(channel.cid);
    void this.#closeChannel(channel);
  }

  async #closeChannel(channel: Channel): Promise<void> {
    channel.closed = true;
    channel.sockets.clear();
    if (this.#channels.get(channel.cid) === channel) this.#channels.delete(channel.cid);
    if (this.#channels.size === 0 && this.#poll !== null) {
      clearInterval(this.#poll);
      this.#poll = null;
    }
    await channel.reader?.cancel().catch(() => undefined);
    await channel.running;
  }

  #beat(): void {
    for (const socket of this.#sockets.keys()) send(socket, PING);
  }

  #stopTimers(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    if (this.#poll !== null) clearInterval(this.#poll);
    this.#heartbeat = null;
    this.#poll = null;
  }

  #closeSocket(socket: WebSocket): Promise<void> {
    if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      socket.addEventListener("close", () => {
        clearTimeout(timer);
        resolve();
      });
      try {
        socket.close(1001, "Server shutting down");
      } catch {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

let current: Hub | null = null;

/** Starts a hub on `kv` and makes it the one `/ws` uses (main.ts; close it on shutdown). */
export function startLiveHub(kv: Deno.Kv, options: LiveHubOptions = {}): LiveHub {
  const hub = new Hub(kv, options);
  current = hub;
  return hub;
}

/** The hub of the current services' KV, started on first use (tests start apps without main.ts). */
export function getLiveHub(): LiveHub {
  const { kv } = services();
  if (current && current.kv === kv && !current.closed) return current;
  return startLiveHub(kv);
}
