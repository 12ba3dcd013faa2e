/**
 * The live feed on a port of its own (LIVE_WS_PORT): the same `node:http` server as the main
 * port (node_server.ts) without the app, so it serves only /ws. A browser's handshake must come
 * from this site's pages, which are on the main port.
 */
import type { Services } from "@/lib/services.ts";
import { listenNodeHttp, type NodeServer } from "./node_server.ts";

export type LiveSocketPort = NodeServer;

/** Listens on `hostname:port` for live sockets handed to `services.hub`. */
export function startLiveSocketPort(
  services: Services,
  hostname: string,
  port: number,
): Promise<LiveSocketPort> {
  const { config } = services;
  return listenNodeHttp(services, {
    hostname,
    port,
    crossSite: (headers) => !fromThisSite(headers, config.port, config.publicUrl),
  });
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
