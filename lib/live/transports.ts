/**
 * The two transports of the live hub behind its one socket interface (socket_io.ts):
 * - `serveDenoSocket`: a WebSocket from `Deno.upgradeWebSocket` (tests, `deno task dev`); Deno
 *   pings on its own (`idleTimeout`) and sends text through its own framing;
 * - `serveNodeSocket`: a `ws` socket over a `node:http` upgrade (the served ports, see
 *   lib/http/node_server.ts); a broadcast writes the message's shared frame straight to the
 *   connection (compressed when the socket negotiated permessage-deflate), and a heartbeat cuts
 *   a peer that stayed silent since the last one.
 */
import type { Duplex } from "node:stream";
import type { WebSocket as NodeWebSocket } from "ws";
import type { LiveHub } from "./hub.ts";
import {
  CLOSE,
  CLOSE_WAIT_MS,
  type LiveSocket,
  type LiveSocketEvents,
  MAX_BUFFERED_BYTES,
  type Outgoing,
  PING,
  RESTART_REASON,
} from "./socket_io.ts";

/** Hands a Deno WebSocket to `hub` (the hub refuses it with a close when full or closed). */
export function serveDenoSocket(hub: LiveHub, ws: WebSocket): void {
  const closed = new Promise<void>((resolve) => ws.addEventListener("close", () => resolve()));
  const close = (code: number, reason: string) => {
    try {
      ws.close(code, reason);
    } catch {
      // Already closing; its close event follows.
    }
  };
  const socket: LiveSocket = {
    send(message: Outgoing) {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return close(CLOSE.policy, "Too slow");
      try {
        for (const text of message.texts) ws.send(text);
      } catch {
        // The peer went away between the state check and the send; its close event cleans up.
      }
    },
    close,
    closeAndWait() {
      if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
      close(CLOSE.restart, RESTART_REASON);
      return waitAtMost(closed, CLOSE_WAIT_MS);
    },
    beat() {
      this.send(PING);
    },
  };
  ws.binaryType = "arraybuffer";
  let events: LiveSocketEvents | null = null;
  const open = () => events = hub.accept(socket);
  if (ws.readyState === WebSocket.OPEN) open();
  else ws.addEventListener("open", open);
  ws.addEventListener("message", (event) => {
    const data = event.data;
    if (typeof data === "string") return events?.message(data);
    if (data instanceof ArrayBuffer) return events?.message(new Uint8Array(data));
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    events?.closed();
  };
  ws.addEventListener("close", end);
  ws.addEventListener("error", end);
}

/**
 * Hands a `ws` socket to `hub`; `raw` is the connection it was upgraded on, where a broadcast
 * writes its shared frame (each write is one whole frame, so it never splits one of `ws`'s own).
 */
export function serveNodeSocket(hub: LiveHub, ws: NodeWebSocket, raw: Duplex): void {
  const closed = new Promise<void>((resolve) => ws.once("close", () => resolve()));
  const deflated = ws.extensions.split(",").includes("permessage-deflate");
  let heard = true;
  const close = (code: number, reason: string) => {
    try {
      ws.close(code, reason);
    } catch {
      ws.terminate();
    }
  };
  const socket: LiveSocket = {
    send(message: Outgoing) {
      if (ws.readyState !== ws.OPEN) return;
      if (raw.writableLength > MAX_BUFFERED_BYTES) return ws.terminate();
      raw.write(deflated ? message.deflatedFrame : message.frame);
    },
    close,
    closeAndWait() {
      if (ws.readyState === ws.CLOSED) return Promise.resolve();
      close(CLOSE.restart, RESTART_REASON);
      return waitAtMost(closed, CLOSE_WAIT_MS).then(() => ws.terminate());
    },
    beat() {
      if (!heard) return ws.terminate();
      heard = false;
      this.send(PING);
      if (ws.readyState === ws.OPEN) ws.ping();
    },
  };
  const events = hub.accept(socket);
  ws.on("pong", () => heard = true);
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    heard = true;
    events?.message(isBinary ? new Uint8Array(data) : data.toString("utf8"));
    if (deflated) setImmediate(() => releaseInflater(ws));
  });
  ws.once("close", () => events?.closed());
}

/** The parts of `ws` 8's internals `releaseInflater` reads (ws is pinned in package.json). */
interface WsInternals {
  _receiver?: { _state?: number } | null;
  _extensions?: Record<string, { _inflate?: { close(): void } | null } | undefined>;
}
/** `ws`'s Receiver state while a message is being inflated (or waits for the zlib limiter). */
const WS_INFLATING = 5;

/**
 * Frees the zlib inflater `ws` made for this socket's compressed messages. `ws` keeps one per
 * socket for good (about 15 KB each: 750 MB for 50,000 browsers), while a live client sends a
 * join and a few pings; with client_no_context_takeover nothing is lost, and `ws` makes a new
 * one for the next compressed message. Left alone while a message is being inflated.
 */
export function releaseInflater(ws: NodeWebSocket): void {
  const internals = ws as unknown as WsInternals;
  const deflate = internals._extensions?.["permessage-deflate"];
  if (!deflate?._inflate || internals._receiver?._state === WS_INFLATING) return;
  deflate._inflate.close();
  deflate._inflate = null;
}

function waitAtMost(done: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
}
