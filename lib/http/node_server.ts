/**
 * One isolate's port served through `node:http`, so a live socket's frames are read by the `ws`
 * package: a frame whose header announces more than `MAX_FRAME_BYTES` closes the socket with
 * 1009 before a byte of its payload is read. (`Deno.upgradeWebSocket` reads every message whole,
 * up to 64 MiB, before the app sees it, and has no size option.) Every other request goes to the
 * app's fetch handler as a `Request`, answered from its `Response`. The port is opened with
 * `reusePort`, so each isolate of one process listens on it and the kernel spreads connections.
 */
import http from "node:http";
import { once } from "node:events";
import type { Duplex } from "node:stream";
import { MAX_MESSAGE_CHARS } from "@/lib/live/hub.ts";
import { liveWebSocketServer, upgradeNodeSocket } from "@/lib/live/ws_node.ts";
import type { Services } from "@/lib/services.ts";
import { acceptLiveSocket } from "./live_socket.ts";
import { isCrossOriginRequest, liveSocketSources, withSecurityHeaders } from "./security.ts";
import { json } from "./errors.ts";

/** A message of MAX_MESSAGE_CHARS characters is at most 4 bytes a character in UTF-8. */
export const MAX_FRAME_BYTES = MAX_MESSAGE_CHARS * 4;

export type FetchHandler = (req: Request, info: Deno.ServeHandlerInfo) => Promise<Response>;

export interface NodeServerOptions {
  hostname: string;
  port: number;
  /** The app; without one the port serves only /ws (LIVE_WS_PORT) and answers 404 otherwise. */
  handler?: FetchHandler;
  /**
   * Whether a browser's handshake comes from another site. Default: its Origin differs from the
   * host it asked (the page and the feed share this port).
   */
  crossSite?: (headers: Headers, url: URL) => boolean;
}

export interface NodeServer {
  /** Stops listening and cuts the sockets still open. */
  close(): Promise<void>;
}

/** Listens on `hostname:port`; resolves once listening (rejects when the port cannot be had). */
export function listenNodeHttp(
  services: Services,
  options: NodeServerOptions,
): Promise<NodeServer> {
  const { hub, config } = services;
  const { handler, hostname, port } = options;
  const crossSite = options.crossSite ??
    ((headers: Headers, url: URL) => isCrossOriginRequest(new Request(url, { headers })));
  const wss = liveWebSocketServer(MAX_FRAME_BYTES);
  const server = http.createServer((req, res) => {
    if (!handler) {
      res.writeHead(404, { "content-type": "application/json; charset=utf-8" });
      return void res.end(JSON.stringify({ message: "Not Found" }));
    }
    void answer(handler, req, res, hostname, port);
  });
  // Node closes an idle kept-alive connection after 5 s, and a client that sends on it at that
  // very moment gets ECONNRESET for a request the server never saw (seen with a browser's API
  // client a few seconds after its previous call). Idle connections are kept longer than clients
  // and proxies keep theirs (60 s is the usual proxy default), so the client is the one to close.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const sources = liveSocketSources(config.publicUrl, config.port, config.liveWsPort);

  server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const headers = headersOf(req);
    const url = requestUrl(req, hostname, port);
    const servesFeed = handler === undefined || !config.liveWsPort;
    if (url.pathname !== "/ws" || !servesFeed) {
      // Not the feed here: the app answers (e.g. /ws with LIVE_WS_PORT names that port).
      if (!handler) return refuse(socket, json({ message: "Not Found" }, { status: 404 }), sources);
      const request = new Request(url, { headers });
      return void handler(request, { remoteAddr: remoteAddrOf(req), completed: Promise.resolve() })
        .then((res) => refuse(socket, res, sources), () => socket.destroy());
    }
    const refused = acceptLiveSocket(
      hub,
      { headers, crossOrigin: crossSite(headers, url), address: remoteAddress(req) },
      (release) => upgradeNodeSocket(hub, wss, { req, socket, head }, release),
    );
    if (refused instanceof Response) return refuse(socket, refused, sources);
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host: hostname, reusePort: true, backlog: 4096 }, () => {
      server.off("error", reject);
      resolve({
        close: async () => {
          for (const ws of wss.clients) ws.terminate();
          const closed = new Promise<void>((done) => server.close(() => done()));
          server.closeAllConnections();
          await closed;
        },
      });
    });
  });
}

/** The request's address as Deno.serve reports it (IPv4 without the `::ffff:` prefix). */
function remoteAddress(req: http.IncomingMessage): string {
  const address = req.socket.remoteAddress ?? "unknown";
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}

function remoteAddrOf(req: http.IncomingMessage): Deno.NetAddr {
  return { transport: "tcp", hostname: remoteAddress(req), port: req.socket.remotePort ?? 0 };
}

function requestUrl(req: http.IncomingMessage, hostname: string, port: number): URL {
  try {
    return new URL(req.url ?? "/", `http://${req.headers.host ?? `${hostname}:${port}`}`);
  } catch {
    return new URL(`http://${hostname}:${port}/`);
  }
}

/** Runs the app's handler on a node request and writes its answer, streaming the body. */
async function answer(
  handler: FetchHandler,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  hostname: string,
  port: number,
): Promise<void> {
  const aborted = new AbortController();
  const completed = new Promise<void>((resolve) => {
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort();
      resolve();
    });
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  try {
    const request = new Request(requestUrl(req, hostname, port), {
      method: req.method,
      headers: headersOf(req),
      body: hasBody ? bodyOf(req) : null,
      signal: aborted.signal,
      // @ts-expect-error: `duplex` is required by fetch for a streamed body, not yet in the type.
      duplex: "half",
    });
    const response = await handler(request, { remoteAddr: remoteAddrOf(req), completed });
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") headers.push([name, value]);
    });
    for (const cookie of response.headers.getSetCookie()) headers.push(["set-cookie", cookie]);
    res.writeHead(response.status, response.statusText, headers.flat());
    if (!response.body) return void res.end();
    if (response.headers.has("content-length")) {
      // A body of known size (pages, cached answers, assets): one write, no chunked encoding.
      return void res.end(new Uint8Array(await response.arrayBuffer()));
    }
    for await (const chunk of response.body) {
      if (!res.write(chunk)) await once(res, "drain");
    }
    res.end();
  } catch (err) {
    if (aborted.signal.aborted) return;
    console.error("server: request failed", err);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end();
  }
}

/** How much of a request body is buffered ahead of the app's reads. */
const BODY_BUFFER_BYTES = 64 * 1024;

/**
 * A node request's body as a web stream, read as the app pulls. Cancelling it (the app refused
 * the body, e.g. a 413) does not destroy the socket, as `Readable.toWeb`'s cancel does, so that
 * the answer could never be sent: the rest is read and dropped by node while the answer goes out.
 */
function bodyOf(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      let ended = false;
      req.once("end", () => {
        ended = true;
        if (!cancelled) controller.close();
      });
      req.once("error", (err) => !cancelled && controller.error(err));
      // A client gone before the body's end: the read fails instead of waiting for more.
      req.once("close", () => {
        if (!ended && !cancelled) controller.error(new Error("The request was aborted"));
      });
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      cancelled = true;
      req.resume();
    },
  }, { highWaterMark: BODY_BUFFER_BYTES, size: (chunk) => chunk.byteLength });
}

function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    } catch {
      // A header value Headers refuses is left out (the app checks what it needs).
    }
  }
  return headers;
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
