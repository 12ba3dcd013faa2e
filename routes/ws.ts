import type { Handlers } from "$fresh/server.ts";
import { json } from "../lib/http/errors.ts";
import { isCrossOriginRequest } from "../lib/http/security.ts";
import type { State } from "@/lib/services.ts";

/** Seconds without any frame before Deno closes a dead connection (it pings on its own). */
const IDLE_TIMEOUT_S = 60;
/** Answer when the hub already serves its most sockets; the page falls back to polling. */
const FULL_MESSAGE = "The live feed is at capacity; please try again later";
const FULL_RETRY_AFTER_S = 30;

export const handler: Handlers<unknown, State> = {
  /**
   * The live push of SPEC §7: upgrades to a WebSocket served by the live hub. Pages of other
   * sites may not open it (403): it is for this site's leaderboard only. A hub at its socket
   * cap answers 503 before upgrading.
   */
  GET(req, ctx) {
    if (isCrossOriginRequest(req)) {
      return json({ message: "Cross-site WebSocket connections are not allowed" }, { status: 403 });
    }
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return json({ message: "Expected a WebSocket upgrade" }, {
        status: 426,
        headers: { upgrade: "websocket" },
      });
    }
    const { hub } = ctx.state.services;
    if (!hub.hasRoom()) {
      return json({ message: FULL_MESSAGE }, {
        status: 503,
        headers: { "retry-after": String(FULL_RETRY_AFTER_S) },
      });
    }
    const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: IDLE_TIMEOUT_S });
    hub.accept(socket);
    return response;
  },
};
