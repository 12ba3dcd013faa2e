/**
 * The live feed on its own port (LIVE_WS_PORT, issue #13). `Deno.upgradeWebSocket` reads each
 * message whole, up to 64 MiB, before the app sees it, and has no size option; here a `node:http`
 * server with the `ws` package terminates `/ws` instead, and a frame whose header announces more
 * than `MAX_FRAME_BYTES` closes the socket with 1009 before a byte of its payload is read. Every
 * isolate listens on the port (`reusePort`) and hands its sockets to its own hub, as on the main
 * port; admission (site, handshake, room, per-address limits) is the main port's.
 */
import http from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket as NodeWebSocket, WebSocketServer } from "ws";
import { MAX_MESSAGE_CHARS } from "@/lib/live/hub.ts";
import type { Services } from "@/lib/services.ts";
import { admitLiveSocket } from "./live_socket.ts";
import { liveSocketSources, withSecurityHeaders } from "./security.ts";
import { json } from "./errors.ts";

/** A message of MAX_MESSAGE_CHARS characters is at most 4 bytes a character in UTF-8. */
export const MAX_FRAME_BYTES = MAX_MESSAGE_CHARS * 4;
/** A socket that has not answered a ping within this long is closed. */
const PING_INTERVAL_MS = 30_000;

export interface LiveSocketPort {
  /** Stops listening and closes the sockets still open. */
  close(): Promise<void>;
}

/**
 * Listens on `hostname:port` for live sockets handed to `services.hub`; resolves once listening
 * (rejects when the port cannot be had).
 */
export function startLiveSocketPort(
  services: Services,
  hostname: string,
  port: number,
): Promise<LiveSocketPort> {
  const { hub, config } = services;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    perMessageDeflate: false,
  });
  const server = http.createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ message: "Not Found" }));
  });
  const sources = liveSocketSources(config.publicUrl, config.port, config.liveWsPort);

  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const headers = headersOf(req);
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/ws") {
      return refuse(socket, json({ message: "Not Found" }, { status: 404 }), sources);
    }
    const admitted = admitLiveSocket(
      headers,
      !fromThisSite(headers, config.port, config.publicUrl),
      hub,
      req.socket.remoteAddress ?? "unknown",
    );
    if (admitted instanceof Response) return refuse(socket, admitted, sources);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.once("close", admitted.release);
      // A refused frame (over maxPayload, or invalid): `ws` has sent its close frame (1009 or
      // 1002) and would read the rest of the frame to discard it; the link is cut instead.
      ws.on("error", () => setImmediate(() => ws.terminate()));
      if (!hub.hasRoom()) return ws.close(1013, "Too many live connections"); // closed meanwhile
      keepAlive(ws);
      // The `ws` socket has the browser WebSocket's interface the hub uses (readyState, send,
      // close, onmessage with text as strings, onclose, onerror, addEventListener).
      hub.accept(ws as unknown as WebSocket);
    });
  });

  const pings = setInterval(() => {
    for (const ws of wss.clients) ping(ws);
  }, PING_INTERVAL_MS);

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host: hostname, reusePort: true }, () => {
      server.off("error", reject);
      resolve({
        close: async () => {
          clearInterval(pings);
          for (const ws of wss.clients) ws.terminate();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}

const alive = new WeakSet<NodeWebSocket>();

function keepAlive(ws: NodeWebSocket): void {
  alive.add(ws);
  ws.on("pong", () => alive.add(ws));
}

/** Pings a socket that answered the last ping; closes one that did not. */
function ping(ws: NodeWebSocket): void {
  if (!alive.has(ws)) return void ws.terminate();
  alive.delete(ws);
  ws.ping();
}

function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    try {
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    } catch {
      // A header value Headers refuses is left out (the handshake checks what it needs).
    }
  }
  return headers;
}

/**
 * Whether a browser request comes from this site's pages: no Origin (API clients), an Origin equal
 * to PUBLIC_URL, or the host the socket was asked on with the main port. Sec-Fetch-Site cannot
 * tell: another port of the same host is "same-site", like any subdomain.
 */
function fromThisSite(headers: Headers, mainPort: number, publicUrl: string | null): boolean {
  const origin = headers.get("origin");
  if (origin === null) return true;
  if (publicUrl !== null && origin === new URL(publicUrl).origin) return true;
  try {
    const from = new URL(origin);
    const host = new URL(`http://${headers.get("host") ?? ""}`).hostname;
    return from.hostname === host && Number(from.port || defaultPort(from)) === mainPort;
  } catch {
    return false; // "null" (sandboxed frames) or garbage
  }
}

function defaultPort(url: URL): number {
  return url.protocol === "https:" ? 443 : 80;
}

/** Writes `res` as a plain HTTP/1.1 answer (with the security headers) and closes the socket. */
async function refuse(socket: Duplex, res: Response, sources: string[]): Promise<void> {
  const answer = withSecurityHeaders(res, false, sources);
  const body = new TextEncoder().encode(await answer.text());
  const lines = [`HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? ""}`];
  answer.headers.forEach((value, name) => {
    if (name !== "content-length" && name !== "connection") lines.push(`${name}: ${value}`);
  });
  lines.push(`content-length: ${body.length}`, "connection: close", "", "");
  socket.write(lines.join("\r\n"));
  socket.end(body);
}
