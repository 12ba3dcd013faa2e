import type { Handlers } from "$fresh/server.ts";
import { json } from "../lib/http/errors.ts";
import { getLiveHub } from "../lib/live/hub.ts";

/** Seconds without any frame before Deno closes a dead connection (it pings on its own). */
const IDLE_TIMEOUT_S = 60;

export const handler: Handlers = {
  /** The live push of SPEC §7: upgrades to a WebSocket served by the live hub. */
  GET(req) {
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return json({ message: "Expected a WebSocket upgrade" }, {
        status: 426,
        headers: { upgrade: "websocket" },
      });
    }
    const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: IDLE_TIMEOUT_S });
    getLiveHub().accept(socket);
    return response;
  },
};
