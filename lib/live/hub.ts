/**
 * The live hub behind /ws (SPEC §7 "Live push", ARCHITECTURE §4-5). A socket joins a competition
 * with `{type: "join", competitionId}` and gets the current `game_events_update` at once, again on
 * every change of the events, and a `leaderboard_update` hint when standings move.
 *
 * Its parts: `Channel` (channel.ts) is one followed competition with one `kv.watch` shared by all
 * its sockets; `VersionPoll` (version_poll.ts) re-reads the live versionstamps of all channels
 * in one `getMany` every `pollMs`, for writes of other processes that watch does not report;
 * `Peer` (peer.ts) is a socket's joins and token bucket; socket_io.ts sends and closes. A
 * channel outlives its last socket by `watchGraceMs`, so join/leave churn reuses its watch.
 *
 * Abuse limits: a message over `MAX_MESSAGE_CHARS` closes the socket with 1009 (Deno has already
 * buffered it; closing makes every repeat cost a new handshake); each socket has a token bucket
 * (`messageBurst`, refilled at `messagesPerSecond`) whose overflow gets one "Too many messages"
 * error and, past another burst's worth, a 1008 close; a socket follows at most
 * `maxJoinsPerSocket` competitions; the hub holds at most `maxSockets` sockets (/ws answers 503).
 */
import { getCompetition } from "@/lib/db/competitions.ts";
import { wsClientMessageSchema } from "@/lib/domain/schemas/public.ts";
import { Channel } from "./channel.ts";
import { getLeaderboardCache, type LeaderboardCache } from "./leaderboard_cache.ts";
import { Peer } from "./peer.ts";
import {
  CLOSE,
  close,
  closeAndWait,
  errorMessage,
  messageSize,
  PING,
  PONG,
  send,
} from "./socket_io.ts";
import { VersionPoll } from "./version_poll.ts";

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
  pollMs: 250,
  heartbeatMs: 25_000,
  eventLimit: 50,
  watchGraceMs: 5000,
  maxSockets: MAX_SOCKETS,
  maxJoinsPerSocket: MAX_JOINS_PER_SOCKET,
  messageBurst: 20,
  messagesPerSecond: 5,
};
const TOO_MANY_MESSAGES = "Too many messages";

class Hub implements LiveHub {
  readonly kv: Deno.Kv;
  readonly #options: Required<LiveHubOptions>;
  readonly #cache: LeaderboardCache;
  readonly #sockets = new Map<WebSocket, Peer>();
  readonly #channels = new Map<number, Channel>();
  readonly #poll: VersionPoll;
  #watchesStarted = 0;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #closed = false;

  constructor(kv: Deno.Kv, options: LiveHubOptions) {
    this.kv = kv;
    this.#options = { ...DEFAULTS, ...options };
    this.#cache = getLeaderboardCache(kv);
    this.#poll = new VersionPoll(kv, this.#options.pollMs, () => this.#channels.values());
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
    const { messageBurst, messagesPerSecond } = this.#options;
    this.#sockets.set(socket, new Peer(messageBurst, messagesPerSecond));
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
    const closing = [...this.#sockets.keys()].map(closeAndWait);
    const running = [...this.#channels.values()].map((channel) => this.#closeChannel(channel));
    this.#sockets.clear();
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    this.#poll.stop(true);
    await Promise.all([...closing, ...running]);
  }

  async #onMessage(socket: WebSocket, data: unknown): Promise<void> {
    const peer = this.#sockets.get(socket);
    if (!peer || peer.closing) return;
    if (messageSize(data) > MAX_MESSAGE_CHARS) {
      return this.#expel(socket, peer, CLOSE.tooBig, "Message too big");
    }
    const admission = peer.admit();
    if (admission === "warn") send(socket, errorMessage(TOO_MANY_MESSAGES));
    if (admission === "expel") this.#expel(socket, peer, CLOSE.policy, TOO_MANY_MESSAGES);
    if (admission !== "accept") return;
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

  /** Closes an abusive socket at once; it stops following its competitions right away. */
  #expel(socket: WebSocket, peer: Peer, code: number, reason: string): void {
    peer.closing = true;
    for (const cid of peer.joined) this.#leave(socket, peer, cid);
    close(socket, code, reason);
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
    if (existing) return existing.subscribe(socket);
    const competition = await getCompetition(this.kv, cid);
    if (peer.closing || !joined.has(cid)) return;
    if (!competition) {
      joined.delete(cid);
      return send(socket, errorMessage("Competition not found"));
    }
    (this.#channels.get(cid) ?? this.#openChannel(cid)).subscribe(socket);
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
    const channel = new Channel(cid, {
      kv: this.kv,
      cache: this.#cache,
      eventLimit: this.#options.eventLimit,
      onGone: (gone, sockets) => {
        for (const socket of sockets) this.#sockets.get(socket)?.joined.delete(cid);
        void this.#closeChannel(gone);
      },
    });
    this.#channels.set(cid, channel);
    channel.watch();
    this.#watchesStarted++;
    this.#poll.start();
    return channel;
  }

  async #closeChannel(channel: Channel): Promise<void> {
    if (this.#channels.get(channel.cid) === channel) this.#channels.delete(channel.cid);
    if (this.#channels.size === 0) this.#poll.stop();
    await channel.close();
  }

  #beat(): void {
    for (const socket of this.#sockets.keys()) send(socket, PING);
  }
}

/** Creates a hub on `kv` (one per isolate, in its services; close it on shutdown). */
export function startLiveHub(kv: Deno.Kv, options: LiveHubOptions = {}): LiveHub {
  return new Hub(kv, options);
}
