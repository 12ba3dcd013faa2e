/**
 * The live hub behind /ws. A socket joins a competition with `{type: "join", competitionId}` and
 * gets the current `game_events_update` at once, again on every change of the events, and a
 * `leaderboard_update` hint when standings move.
 *
 * Its parts: a `Channel` (channel.ts) is one followed competition, owning its sockets' join and
 * leave and refreshing when `followLiveVersions` (versions.ts) reports a new live versionstamp;
 * a `Peer` (peer.ts) is a socket's joins and token bucket; every socket, whichever transport
 * serves it (transports.ts), is a `LiveSocket` (socket_io.ts). One heartbeat pings them all.
 *
 * Abuse limits: a message over `MAX_MESSAGE_CHARS` closes the socket with 1009; each socket has a
 * token bucket (`messageBurst`, refilled at `messagesPerSecond`) whose overflow gets one "Too
 * many messages" error and, past another burst's worth, a 1008 close; a socket follows at most
 * `maxJoinsPerSocket` competitions; the hub holds at most `maxSockets` sockets (/ws answers 503).
 */
import { getCompetition } from "@/lib/db/competitions.ts";
import { wsClientMessageSchema } from "@/lib/domain/schemas/public.ts";
import { Channel } from "./channel.ts";
import { SocketAdmission } from "./admission.ts";
import { LeaderboardCache } from "./leaderboard_cache.ts";
import { Peer } from "./peer.ts";
import {
  CLOSE,
  errorMessage,
  type LiveSocket,
  type LiveSocketEvents,
  PONG,
  RESTART_REASON,
} from "./socket_io.ts";
import { followLiveVersions, type LiveVersions } from "./versions.ts";

export interface LiveHubOptions {
  /** How often the live versionstamps are re-read for changes of other processes (ms). */
  pollMs?: number;
  /** How often every socket gets a `{type: "ping"}` heartbeat (ms). */
  heartbeatMs?: number;
  /** How many of the newest events a `game_events_update` carries. */
  eventLimit?: number;
  /** How long a competition's watch is kept after its last socket left (ms). */
  watchGraceMs?: number;
  /**
   * Longest a changed events message waits for the standings hint to go out in the same write
   * (ms); a slower standings rebuild sends its hint on its own.
   */
  hintWaitMs?: number;
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
  /** The per-address socket and handshake limits of this hub's sockets (lib/http/live_socket.ts). */
  readonly admission: SocketAdmission;
  /** True while the hub has room for another socket (check before upgrading a request). */
  hasRoom(): boolean;
  /**
   * Serves one open socket until it or the hub closes; its transport reports its messages and
   * its end to the returned events. A hub that is full or closed closes it and returns null.
   */
  accept(socket: LiveSocket): LiveSocketEvents | null;
  /** Connected sockets, followed competitions and watches. */
  stats(): LiveHubStats;
  /**
   * Closes every socket with the restart hint (1012 "Service restart", on SIGINT/SIGTERM: pages
   * reconnect, spread out, to another isolate), stops the watches and timers, waits for running
   * refreshes.
   */
  close(): Promise<void>;
}

/** Most competitions one socket may follow at a time (default of `maxJoinsPerSocket`). */
export const MAX_JOINS_PER_SOCKET = 5;
/** Largest client message accepted, in characters (or bytes for binary); larger closes with 1009. */
export const MAX_MESSAGE_CHARS = 1024;
/**
 * Most sockets one hub (one isolate) serves at once by default (LIVE_MAX_SOCKETS sets another): a
 * joined idle socket costs the server a few kilobytes, so the process's file limit usually binds
 * first.
 */
export const MAX_SOCKETS = 30_000;
const DEFAULTS: Required<LiveHubOptions> = {
  pollMs: 25,
  heartbeatMs: 25_000,
  eventLimit: 50,
  watchGraceMs: 5000,
  hintWaitMs: 50,
  maxSockets: MAX_SOCKETS,
  maxJoinsPerSocket: MAX_JOINS_PER_SOCKET,
  messageBurst: 20,
  messagesPerSecond: 5,
};
const TOO_MANY_MESSAGES = "Too many messages";

class Hub implements LiveHub {
  readonly kv: Deno.Kv;
  readonly admission = new SocketAdmission();
  readonly #options: Required<LiveHubOptions>;
  readonly #cache: LeaderboardCache;
  readonly #sockets = new Map<LiveSocket, Peer>();
  readonly #channels = new Map<number, Channel>();
  readonly #versions: LiveVersions;
  #watchesStarted = 0;
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #closed = false;

  constructor(kv: Deno.Kv, options: LiveHubOptions, cache: LeaderboardCache) {
    this.kv = kv;
    this.#options = { ...DEFAULTS, ...options };
    this.#cache = cache;
    this.#versions = followLiveVersions(kv, this.#options.pollMs, (cid, versionstamp) => {
      this.#channels.get(cid)?.versionChanged(versionstamp);
    });
  }

  hasRoom(): boolean {
    return !this.#closed && this.#sockets.size < this.#options.maxSockets;
  }

  accept(socket: LiveSocket): LiveSocketEvents | null {
    if (this.#closed) {
      socket.close(CLOSE.restart, RESTART_REASON);
      return null;
    }
    if (!this.hasRoom()) {
      socket.close(CLOSE.tryLater, "Too many live connections");
      return null;
    }
    const { messageBurst, messagesPerSecond, heartbeatMs } = this.#options;
    const peer = new Peer(messageBurst, messagesPerSecond);
    this.#sockets.set(socket, peer);
    this.#heartbeat ??= setInterval(() => this.#beat(), heartbeatMs);
    return {
      message: (data) => void this.#onMessage(socket, peer, data),
      closed: () => this.#drop(socket),
    };
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
    const closing = [...this.#sockets.keys()].map((socket) => socket.closeAndWait());
    const channels = [...this.#channels.values()].map((channel) => channel.close());
    this.#channels.clear();
    this.#sockets.clear();
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    await Promise.all([...closing, ...channels, this.#versions.close()]);
  }

  async #onMessage(socket: LiveSocket, peer: Peer, data: string | Uint8Array): Promise<void> {
    if (peer.closing || !this.#sockets.has(socket)) return;
    if (data.length > MAX_MESSAGE_CHARS) {
      return this.#expel(socket, peer, CLOSE.tooBig, "Message too big");
    }
    const admission = peer.admit();
    if (admission === "warn") socket.send(errorMessage(TOO_MANY_MESSAGES));
    if (admission === "expel") this.#expel(socket, peer, CLOSE.policy, TOO_MANY_MESSAGES);
    if (admission !== "accept") return;
    if (typeof data !== "string") return socket.send(errorMessage("Messages must be JSON text"));
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      return socket.send(errorMessage("Invalid JSON message"));
    }
    const parsed = wsClientMessageSchema.safeParse(raw);
    if (!parsed.success) {
      return socket.send(errorMessage(parsed.error.issues[0]?.message ?? "Invalid message"));
    }
    const message = parsed.data;
    if (message.type === "ping") return socket.send(PONG);
    if (message.type === "leave") return this.#leave(socket, peer, message.competitionId);
    await this.#join(socket, peer, message.competitionId);
  }

  /** Closes an abusive socket at once; it stops following its competitions right away. */
  #expel(socket: LiveSocket, peer: Peer, code: number, reason: string): void {
    peer.closing = true;
    for (const cid of peer.joined) this.#leave(socket, peer, cid);
    socket.close(code, reason);
  }

  async #join(socket: LiveSocket, peer: Peer, cid: number): Promise<void> {
    const { joined } = peer;
    if (joined.has(cid)) return;
    const { maxJoinsPerSocket } = this.#options;
    if (joined.size >= maxJoinsPerSocket) {
      return socket.send(
        errorMessage(`A connection may follow at most ${maxJoinsPerSocket} competitions`),
      );
    }
    joined.add(cid);
    const existing = this.#channels.get(cid);
    if (existing) return existing.join(socket);
    const competition = await getCompetition(this.kv, cid);
    if (peer.closing || !joined.has(cid) || this.#closed) return;
    if (!competition) {
      joined.delete(cid);
      return socket.send(errorMessage("Competition not found"));
    }
    (this.#channels.get(cid) ?? this.#openChannel(cid)).join(socket);
  }

  #leave(socket: LiveSocket, peer: Peer, cid: number): void {
    peer.joined.delete(cid);
    this.#channels.get(cid)?.leave(socket);
  }

  #drop(socket: LiveSocket): void {
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
      graceMs: this.#options.watchGraceMs,
      hintWaitMs: this.#options.hintWaitMs,
      onIdle: (idle) => void this.#closeChannel(idle),
      onGone: (gone, sockets) => {
        for (const socket of sockets) this.#sockets.get(socket)?.joined.delete(cid);
        void this.#closeChannel(gone);
      },
    });
    this.#channels.set(cid, channel);
    this.#versions.follow(cid);
    this.#watchesStarted++;
    return channel;
  }

  async #closeChannel(channel: Channel): Promise<void> {
    if (this.#channels.get(channel.cid) !== channel) return;
    this.#channels.delete(channel.cid);
    await Promise.all([this.#versions.unfollow(channel.cid), channel.close()]);
  }

  #beat(): void {
    for (const socket of this.#sockets.keys()) socket.beat();
  }
}

/**
 * Creates a hub on `kv` (one per isolate, in its services; close it on shutdown) that ranks with
 * `cache`, the isolate's leaderboard cache (a hub of its own, in a test or bench, makes one).
 */
export function startLiveHub(
  kv: Deno.Kv,
  options: LiveHubOptions = {},
  cache = new LeaderboardCache(kv),
): LiveHub {
  return new Hub(kv, options, cache);
}
