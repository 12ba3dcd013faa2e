import type { Handlers } from "$fresh/server.ts";
import { clientIp } from "../lib/auth/guard.ts";
import { json } from "../lib/http/errors.ts";
import { isCrossOriginRequest } from "../lib/http/security.ts";
import type { State } from "@/lib/services.ts";
import { admissionOf } from "../lib/live/admission.ts";

/** Seconds without any frame before Deno closes a dead connection (it pings on its own). */
const IDLE_TIMEOUT_S = 60;
/** Answer when the hub already serves its most sockets; the page falls back to polling. */
const FULL_MESSAGE = "The live feed is at capacity; please try again later";
const FULL_RETRY_AFTER_S = 30;
/** The only WebSocket version (RFC 6455 §4.4). */
const WS_VERSION = "13";
/** A Sec-WebSocket-Key: base64 of 16 bytes (RFC 6455 §4.1). */
const WS_KEY = /^[A-Za-z0-9+/]{22}==$/;

/** Why the request is not a valid WebSocket handshake (RFC 6455 §4.2.1), or null. */
function handshakeProblem(req: Request): Response | null {
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return json({ message: "Expected a WebSocket upgrade" }, {
      status: 426,
      headers: { upgrade: "websocket" },
    });
  }
  if (req.headers.get("sec-websocket-version")?.trim() !== WS_VERSION) {
    return json({ message: "Unsupported WebSocket version; use 13" }, {
      status: 426,
      headers: { "sec-websocket-version": WS_VERSION },
    });
  }
  const connection = req.headers.get("connection") ?? "";
  if (!connection.split(",").some((token) => token.trim().toLowerCase() === "upgrade")) {
    return json({ message: "The Connection header must contain Upgrade" }, { status: 400 });
  }
  if (!WS_KEY.test(req.headers.get("sec-websocket-key")?.trim() ?? "")) {
    return json({ message: "Missing or invalid Sec-WebSocket-Key" }, { status: 400 });
  }
  return null;
}

export const handler: Handlers<unknown, State> = {
  /**
   * The live push of SPEC §7: upgrades to a WebSocket served by the live hub. Pages of other
   * sites may not open it (403): it is for this site's leaderboard only. An invalid handshake
   * is a 400 (426 for another version than 13); an address over its socket or handshake limit
   * gets 429, a hub at its socket cap 503, both before upgrading.
   */
  GET(req, ctx) {
    if (isCrossOriginRequest(req)) {
      return json({ message: "Cross-site WebSocket connections are not allowed" }, { status: 403 });
    }
    const problem = handshakeProblem(req);
    if (problem) return problem;
    const { hub } = ctx.state.services;
    if (!hub.hasRoom()) {
      return json({ message: FULL_MESSAGE }, {
        status: 503,
        headers: { "retry-after": String(FULL_RETRY_AFTER_S) },
      });
    }
    const admission = admissionOf(hub).admit(clientIp(ctx) ?? "unknown");
    if (!admission.ok) {
      const message = admission.reason === "sockets"
        ? "Too many live connections from your address"
        : "Too many live connection attempts from your address";
      return json({ message }, {
        status: 429,
        headers: { "retry-after": String(admission.retryAfterSeconds) },
      });
    }
    let upgrade: Deno.WebSocketUpgrade;
    try {
      upgrade = Deno.upgradeWebSocket(req, { idleTimeout: IDLE_TIMEOUT_S });
    } catch {
      admission.release();
      return json({ message: "Invalid WebSocket handshake" }, { status: 400 });
    }
    upgrade.socket.addEventListener("close", admission.release);
    upgrade.socket.addEventListener("error", admission.release);
    hub.accept(upgrade.socket);
    return upgrade.response;
  },
};
