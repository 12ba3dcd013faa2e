/**
 * The one way in for a live socket, whatever serves it (`acceptLiveSocket`): the `node:http`
 * upgrade of every served port (node_server.ts, also behind LIVE_WS_PORT's live_port.ts) and
 * routes/ws.ts when the handler is served by `Deno.serve`. A socket needs a valid RFC 6455
 * handshake from this site, a hub with room and an address under its socket and handshake limits
 * (lib/live/admission.ts); the transport's upgrade runs only then.
 */
import type { LiveHub } from "@/lib/live/hub.ts";
import { json } from "./errors.ts";

/** Answer when the hub already serves its most sockets; the page falls back to polling. */
const FULL_MESSAGE = "The live feed is at capacity; please try again later";
const FULL_RETRY_AFTER_S = 30;
/** The only WebSocket version (RFC 6455 §4.4). */
const WS_VERSION = "13";
/** A Sec-WebSocket-Key: base64 of 16 bytes (RFC 6455 §4.1). */
const WS_KEY = /^[A-Za-z0-9+/]{22}==$/;

/** Why the request is not a valid WebSocket handshake (RFC 6455 §4.2.1), or null. */
function handshakeProblem(headers: Headers): Response | null {
  if (headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return json({ message: "Expected a WebSocket upgrade" }, {
      status: 426,
      headers: { upgrade: "websocket" },
    });
  }
  if (headers.get("sec-websocket-version")?.trim() !== WS_VERSION) {
    return json({ message: "Unsupported WebSocket version; use 13" }, {
      status: 426,
      headers: { "sec-websocket-version": WS_VERSION },
    });
  }
  const connection = headers.get("connection") ?? "";
  if (!connection.split(",").some((token) => token.trim().toLowerCase() === "upgrade")) {
    return json({ message: "The Connection header must contain Upgrade" }, { status: 400 });
  }
  if (!WS_KEY.test(headers.get("sec-websocket-key")?.trim() ?? "")) {
    return json({ message: "Missing or invalid Sec-WebSocket-Key" }, { status: 400 });
  }
  return null;
}

/** A live socket's handshake, whatever the transport. */
export interface LiveHandshake {
  headers: Headers;
  /** Whether a browser's handshake comes from another site. */
  crossOrigin: boolean;
  /** The client's address (the per-address limits count by it). */
  address: string;
}

/**
 * Admits one live socket and has `upgrade` open it and hand it to `hub` (calling `release` once
 * when the socket ends, or at once when the upgrade fails), returning what `upgrade` returns; or
 * returns the answer that refuses it, without upgrading: 403 from another site, 400 or 426 for an
 * invalid handshake, 503 when the hub is full, 429 over the address's limits.
 */
export function acceptLiveSocket<T>(
  hub: LiveHub,
  handshake: LiveHandshake,
  upgrade: (release: () => void) => T,
): Response | T {
  const admitted = admitLiveSocket(hub, handshake);
  return admitted instanceof Response ? admitted : upgrade(admitted.release);
}

/** Admits one live socket, or the answer that refuses it (see `acceptLiveSocket`). */
function admitLiveSocket(
  hub: LiveHub,
  { headers, crossOrigin, address }: LiveHandshake,
): Response | { release: () => void } {
  if (crossOrigin) {
    return json({ message: "Cross-site WebSocket connections are not allowed" }, { status: 403 });
  }
  const problem = handshakeProblem(headers);
  if (problem) return problem;
  if (!hub.hasRoom()) {
    return json({ message: FULL_MESSAGE }, {
      status: 503,
      headers: { "retry-after": String(FULL_RETRY_AFTER_S) },
    });
  }
  const admission = hub.admission.admit(address);
  if (admission.ok) return { release: admission.release };
  const message = admission.reason === "sockets"
    ? "Too many live connections from your address"
    : "Too many live connection attempts from your address";
  return json({ message }, {
    status: 429,
    headers: { "retry-after": String(admission.retryAfterSeconds) },
  });
}
