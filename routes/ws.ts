import type { Handlers } from "$fresh/server.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { json } from "@/lib/http/errors.ts";
import { isCrossOriginRequest } from "@/lib/http/security.ts";
import type { State } from "@/lib/services.ts";
import { admitLiveSocket } from "@/lib/http/live_socket.ts";
import { serveDenoSocket } from "@/lib/live/transports.ts";

/** Seconds without any frame before Deno closes a dead connection (it pings on its own). */
const IDLE_TIMEOUT_S = 60;

export const handler: Handlers<unknown, State> = {
  /**
   * The live push: upgrades to a WebSocket served by the live hub. Pages of other
   * sites may not open it (403): it is for this site's leaderboard only. An invalid handshake
   * is a 400 (426 for another version than 13); an address over its socket or handshake limit
   * gets 429, a hub at its socket cap 503, both before upgrading. With LIVE_WS_PORT the feed is
   * on that port (lib/http/live_port.ts) and this path answers 404. Under `npm start` the port's
   * `node:http` server takes /ws upgrades itself (lib/http/node_server.ts, where an oversized
   * frame is refused from its header); this handler serves them on the single-isolate entries.
   */
  GET(req, ctx) {
    const { hub, config } = ctx.state.services;
    if (config.liveWsPort) {
      // The feed has its own port, where oversized frames are refused before they are read.
      return json({ message: `The live feed is served on port ${config.liveWsPort}` }, {
        status: 404,
      });
    }
    const admitted = admitLiveSocket(
      req.headers,
      isCrossOriginRequest(req),
      hub,
      clientIp(ctx) ?? "unknown",
    );
    if (admitted instanceof Response) return admitted;
    let upgrade: Deno.WebSocketUpgrade;
    try {
      upgrade = Deno.upgradeWebSocket(req, { idleTimeout: IDLE_TIMEOUT_S });
    } catch {
      admitted.release();
      return json({ message: "Invalid WebSocket handshake" }, { status: 400 });
    }
    upgrade.socket.addEventListener("close", admitted.release);
    upgrade.socket.addEventListener("error", admitted.release);
    serveDenoSocket(hub, upgrade.socket);
    return upgrade.response;
  },
};
