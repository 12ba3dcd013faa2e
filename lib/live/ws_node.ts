/**
 * Everything the app takes from the `ws` package (pinned in package.json at `WS_VERSION`; the
 * test tests/unit/live/ws_node_test.ts fails when that pin changes, and exercises each internal
 * relied on here), in one file:
 * - `liveWebSocketServer`: the server that reads live sockets' frames, refusing one over
 *   `maxPayload` from its header (1009) before a byte of its payload is read;
 * - `keepShareableDeflateOffers`: edits the handshake `ws` negotiates permessage-deflate from;
 * - `serveNodeSocket`: a `ws` socket as the hub's `LiveSocket`; a broadcast writes the message's
 *   shared frame straight to the connection under `ws` (compressed when the socket negotiated
 *   permessage-deflate), and a heartbeat cuts a peer that stayed silent since the last one;
 * - `releaseInflater`: frees the zlib inflater `ws` keeps per socket (two private fields).
 */
import type http from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket as NodeWebSocket, WebSocketServer } from "ws";
import type { LiveHub } from "./hub.ts";
import {
  CLOSE,
  CLOSE_WAIT_MS,
  type LiveSocket,
  MAX_BUFFERED_BYTES,
  type Outgoing,
  PING,
  RESTART_REASON,
} from "./socket_io.ts";
import { waitAtMost } from "./transports.ts";

/** The `ws` version this file was written and tested against (package.json pins it). */
export const WS_VERSION = "8.23.0";

/**
 * A `ws` server for `handleUpgrade` (no port of its own) refusing frames over `maxPayload` bytes.
 * Broadcasts write one compressed frame shared by every socket (`Outgoing.deflatedFrame`): each
 * message is compressed alone (server_no_context_takeover) with the full window, and a client's
 * messages are inflated without a kept window (client_no_context_takeover).
 */
export function liveWebSocketServer(maxPayload: number): WebSocketServer {
  return new WebSocketServer({
    noServer: true,
    // Applies to a compressed message's inflated size too: no zip bomb gets past it.
    maxPayload,
    perMessageDeflate: { serverNoContextTakeover: true, clientNoContextTakeover: true },
  });
}

/**
 * Drops the permessage-deflate offers that ask for a smaller server window
 * (server_max_window_bits): the shared compressed frame is made with the full one. Such a client
 * (rare: browsers do not ask) gets uncompressed frames.
 */
export function keepShareableDeflateOffers(req: http.IncomingMessage): void {
  const header = req.headers["sec-websocket-extensions"];
  if (!header) return;
  const kept = header.split(",").map((offer) => offer.trim()).filter((offer) => {
    const [name, ...params] = offer.split(";").map((part) => part.trim());
    return name !== "permessage-deflate" ||
      !params.some((param) => param.startsWith("server_max_window_bits"));
  });
  if (kept.length > 0) req.headers["sec-websocket-extensions"] = kept.join(", ");
  else delete req.headers["sec-websocket-extensions"];
}

/**
 * Upgrades a `node:http` "upgrade" request (`req`, its connection `socket` and the bytes `head`
 * read past its headers) to a `ws` socket served by `hub`; `release` runs once it closes.
 */
export function upgradeNodeSocket(
  hub: LiveHub,
  wss: WebSocketServer,
  { req, socket, head }: { req: http.IncomingMessage; socket: Duplex; head: Uint8Array },
  release: () => void,
): void {
  keepShareableDeflateOffers(req);
  wss.handleUpgrade(req, socket, head as Buffer, (ws) => {
    ws.once("close", release);
    // A refused frame (over maxPayload, or invalid): `ws` has sent its close frame (1009 or
    // 1002) and would read the rest of the frame to discard it; the link is cut instead.
    ws.on("error", () => setImmediate(() => ws.terminate()));
    serveNodeSocket(hub, ws, socket);
  });
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
