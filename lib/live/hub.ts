/**
 * The live hub behind /ws (SPEC §7 "Live push", ARCHITECTURE §4-5). A socket joins a competition
 * with `{type: "join", competitionId}` and gets the current `game_events_update` at once, again on
 * every change of the events, and a `leaderboard_update` hint when standings move.
 *
 * One `kv.watch` of `["live", cid]` per competition per process is shared by all its sockets; as
 * watch does not fire for writes of other processes on a local SQLite file, the hub also re-reads
 * the live versionstamps of its competitions every `pollMs`. Each update is serialised once and
 * the same string is sent to every socket. A competition's watch outlives its last socket by
 * `watchGraceMs`, so join/leave churn reuses it instead of opening a new one each time.
 *
 * Abuse limits: a message over `MAX_MESSAGE_CHARS` closes the socket with 1009 (Deno has already
 * buffered it; closing makes every repeat cost a new handshake); each socket has a token bucket
 * (`messageBurst`, refilled at `messagesPerSecond`) whose overflow gets one "Too many messages"
 * error and, past another burst's worth, a 1008 close; a socket follows at most
 * `maxJoinsPerSocket` competitions; the hub holds at most `maxSockets` sockets (/ws answers 503).
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
  /** How long a competition's watch is kept after its last socket left (ms). */
  watchGraceMs?: number;
  /** Most sockets the hub serves at once; /ws answers 503 beyond. */
  maxSockets?: number;
  /** Most competitions one socket may follow at a time. */
  maxJoinsPerSocket?: number;
  /** Messages a socket may send in a burst (its token bucket's size). */
  messageBurst?: number;
  /** Tokens a socket's bucket regains per second. */
  messagesPerSecond?: number;
}

export interface LiveHubStats {
  /** Connected sockets. */
  sockets: number;
  /** Competitions followed by at least one socket. */
  competitions: number;
  /** Open `kv.watch` streams, including those kept in their grace period. */
  watches: number;
  /** `kv.watch` streams opened since the hub started. */
  watchesStarted: number;
}

export interface LiveHub {
  readonly kv: Deno.Kv;
  /** True while the hub has room for another socket (check before upgrading a request). */
  hasRoom(): boolean;
  /** Serves one WebSocket (from `Deno.upgradeWebSocket`) until it or the hub closes. */
  accept(socket: WebSocket): void;
  /** Connected sockets, followed competitions and watches. */
  stats(): LiveHubStats;
  /** Closes every socket (1001), stops the watches and timers, waits for running refreshes. */
  close(): Promise<void>;
}

/** Most competitions one socket may follow at a time (default of `maxJoinsPerSocket`). */
export const MAX_JOINS_PER_SOCKET = 5;
/** Largest client message accepted, in characters (or bytes for binary); larger closes with 1009. */
export const MAX_MESSAGE_CHARS = 1024;
/** Most sockets one hub serves at once (default of `maxSockets`). */
export const MAX_SOCKETS = 10_000;
const DEFAULTS: Required<LiveHubOptions> = {
  pollMs: 2000,
  heartbeatMs: 25_000,
  eventLimit: 50,
  watchGraceMs: 5000,
  maxSockets: MAX_SOCKETS,
  maxJoinsPerSocket: MAX_JOINS_PER_SOCKET,
  messageBurst: 20,
  messagesPerSecond: 5,
};
const PING = JSON.stringify({ type: "ping" });
const PONG = JSON.stringify({ type: "pong" });
const CLOSE_WAIT_MS = 1000;
const TOO_MANY_MESSAGES = "Too many messages";
/** Close codes of RFC 6455 §7.4.1 (1013 "Try Again Later" is IANA-registered). */
const CLOSE = { goingAway: 1001, policy: 1008, tooBig: 1009, tryLater: 1013 } as const;

/** One connected socket: the competitions it follows and its message token bucket. */
interface Peer {
  joined: Set<number>;
  tokens: number;
  refilledAt: number;
  /** Messages refused since the bucket was last full; past a burst's worth the socket is closed. */
  refused: number;
  /** Closed by the hub for abuse; its remaining messages are ignored. */
  closing: boolean;
}

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
  /** Set while the channel has no socket: it closes when this fires unless one joins first. */
  releaseTimer: ReturnType<typeof setTimeout> | null;
}

function errorMessage(message: string): string {
  return JSON.stringify({ type: "error", message });
}

/** Size of a received message: characters of text, bytes of binary. */
function messageSize(data: unknown): number {
  if (typeof data === "string") return data.length;
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (data instanceof Blob) return data.size;
  return 0;
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
  readonly #sockets = new Map<WebSocket, Peer>();
  readonly #channels = new Map<number, Channel>();
  #watchesStarted = 0;
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

  hasRoom(): boolean {
    return !this.#closed && this.#sockets.size < this.#options.maxSockets;
  }

  accept(socket: WebSocket): void {
    if (this.#closed) {
      socket.onopen = () => socket.close(CLOSE.goingAway, "Server shutting down");
      return;
    }
    if (!this.hasRoom()) {
      socket.onopen = () => socket.close(CLOSE.tryLater, "Too many live connections");
      return;
    }
    this.#sockets.set(socket, {
      joined: new Set(),
      tokens: this.#options.messageBurst,
      refilledAt: performance.now(),
      refused: 0,
      closing: false,
    });
    socket.onmessage = (event) => void this.#onMessage(socket, event.data);
    socket.onclose = () => this.#drop(socket);
    socket.onerror = () => this.#drop(socket);
    this.#heartbeat ??= setInterval(() => this.#beat(), this.#options.heartbeatMs);
  }

  stats(): LiveHubStats {
    let competitions = 0;
    for (const channel of this.#channels.values()) if (channel.sockets.size > 0) competitions++;
    return {
      sockets: this.#sockets.size,
      competitions,
      watches: this.#channels.size,
      watchesStarted: this.#watchesStarted,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closing = [...this.#sockets.keys()].map((socket) => this.#closeSocket(socket));
    const running = [...this.#channels.values()].map((channel) => this.#closeChannel(channel));
    this.#sockets.clear();
    this.#stopTimers();
    await Promise.all([...closing, ...running]);
  }

  async #onMessage(socket: WebSocket, data: unknown): Promise<void> {
    const peer = this.#sockets.get(socket);
    if (!peer || peer.closing) return;
    if (messageSize(data) > MAX_MESSAGE_CHARS) {
      return this.#expel(socket, peer, CLOSE.tooBig, "Message too big");
    }
    if (!this.#takeToken(socket, peer)) return;
    if (typeof data !== "string") return send(socket, errorMessage("Messages must be JSON text"));
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
    if (message.type === "leave") return this.#leave(socket, peer, message.competitionId);
    await this.#join(socket, peer, message.competitionId);
  }

  /**
   * Takes one token from the socket's bucket. Without one, the first refused message of a spell
   * gets an error; a further burst's worth before the bucket is full again closes with 1008.
   */
  #takeToken(socket: WebSocket, peer: Peer): boolean {
    const { messageBurst, messagesPerSecond } = this.#options;
    const now = performance.now();
    peer.tokens = Math.min(
      messageBurst,
      peer.tokens + (now - peer.refilledAt) * messagesPerSecond / 1000,
    );
    peer.refilledAt = now;
    if (peer.tokens >= messageBurst) peer.refused = 0;
    if (peer.tokens >= 1) {
      peer.tokens -= 1;
      return true;
    }
    peer.refused++;
    if (peer.refused === 1) send(socket, errorMessage(TOO_MANY_MESSAGES));
    if (peer.refused > messageBurst) this.#expel(socket, peer, CLOSE.policy, TOO_MANY_MESSAGES);
    return false;
  }

  /** Closes an abusive socket at once; it stops following its competitions right away. */
  #expel(socket: WebSocket, peer: Peer, code: number, reason: string): void {
    peer.closing = true;
    for (const cid of peer.joined) this.#leave(socket, peer, cid);
    try {
      socket.close(code, reason);
    } catch {
      // Already closing; its close event cleans up.
    }
  }

  async #join(socket: WebSocket, peer: Peer, cid: number): Promise<void> {
    const { joined } = peer;
    if (joined.has(cid)) return;
    const { maxJoinsPerSocket } = this.#options;
    if (joined.size >= maxJoinsPerSocket) {
      return send(
        socket,
        errorMessage(`A connection may follow at most ${maxJoinsPerSocket} competitions`),
      );
    }
    joined.add(cid);
    const existing = this.#channels.get(cid);
    if (existing) return this.#subscribe(existing, socket);
    const competition = await getCompetition(this.kv, cid);
    if (peer.closing || !joined.has(cid)) return;
    if (!competition) {
      joined.delete(cid);
      return send(socket, errorMessage("Competition not found"));
    }
    this.#subscribe(this.#channels.get(cid) ?? this.#openChannel(cid), socket);
  }

  #subscribe(channel: Channel, socket: WebSocket): void {
    if (channel.releaseTimer !== null) clearTimeout(channel.releaseTimer);
    channel.releaseTimer = null;
    channel.sockets.add(socket);
    if (channel.eventsMessage) send(socket, channel.eventsMessage);
  }

  /** Unsubscribes; the channel's last socket leaving starts its grace period, not its end. */
  #leave(socket: WebSocket, peer: Peer, cid: number): void {
    peer.joined.delete(cid);
    const channel = this.#channels.get(cid);
    if (!channel || !channel.sockets.delete(socket)) return;
    if (channel.sockets.size > 0 || this.#closed) return;
    channel.releaseTimer = setTimeout(() => {
      channel.releaseTimer = null;
      void this.#closeChannel(channel);
    }, this.#options.watchGraceMs);
  }

  #drop(socket: WebSocket): void {
    const peer = this.#sockets.get(socket);
    if (!peer) return;
    for (const cid of peer.joined) this.#leave(socket, peer, cid);
    this.#sockets.delete(socket);
    if (this.#sockets.size === 0 && this.#heartbeat !== null) {
      clearInterval(this.#heartbeat);
      this.#heartbeat = null;
    }
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
      releaseTimer: null,
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
    this.#watchesStarted++;
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
    for (const socket of channel.sockets) this.#sockets.get(socket)?.joined.delete(channel.cid);
    void this.#closeChannel(channel);
  }

  async #closeChannel(channel: Channel): Promise<void> {
    channel.closed = true;
    channel.sockets.clear();
    if (channel.releaseTimer !== null) clearTimeout(channel.releaseTimer);
    channel.releaseTimer = null;
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
        socket.close(CLOSE.goingAway, "Server shutting down");
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

/**
 * The hub of the current services' KV, started on first use (tests start apps without main.ts).
 * A closed hub stays the current one, so a request arriving during shutdown is refused by it
 * instead of starting a new hub that would hold the server open.
 */
export function getLiveHub(): LiveHub {
  const { kv } = services();
  if (current && current.kv === kv) return current;
  return startLiveHub(kv);
}
