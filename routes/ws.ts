import type { Handlers } from "$fresh/server.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { json } from "@/lib/http/errors.ts";
import { isCrossOriginRequest } from "@/lib/http/security.ts";
import type { State } from "@/lib/services.ts";
import { acceptLiveSocket } from "@/lib/http/live_socket.ts";
import { serveDenoSocket } from "@/lib/live/transports.ts";

/** Seconds without any frame before Deno closes a dead connection (it pings on its own). */
const IDLE_TIMEOUT_S = 60;

export const handler: Handlers<unknown, State> = {
  /**
   * The live push: upgrades to a WebSocket served by the live hub. Pages of other
   * sites may not open it (403): it is for this site's leaderboard only. An invalid handshake
   * is a 400 (426 for another version than 13); an address over its socket or handshake limit
   * gets 429, a hub at its socket cap 503, both before upgrading. With LIVE_WS_PORT the feed is
   * on that port (lib/http/live_port.ts) and this path answers 404. Every served port's
   * `node:http` server (`npm start`, main.ts) takes /ws upgrades itself (lib/http/node_server.ts,
   * where an oversized frame is refused from its header); this handler serves them when the
   * handler runs under `Deno.serve` (tests). Both go through `acceptLiveSocket`.
   */
  GET(req, ctx) {
    const { hub, config } = ctx.state.services;
    if (config.liveWsPort) {
      // The feed has its own port, where oversized frames are refused before they are read.
      return json({ message: `The live feed is served on port ${config.liveWsPort}` }, {
        status: 404,
      });
    }
    const handshake = {
      headers: req.headers,
      crossOrigin: isCrossOriginRequest(req),
      address: clientIp(ctx) ?? "unknown",
    };
    return acceptLiveSocket(hub, handshake, (release) => {
      let upgrade: Deno.WebSocketUpgrade;
      try {
        upgrade = Deno.upgradeWebSocket(req, { idleTimeout: IDLE_TIMEOUT_S });
      } catch {
        release();
        return json({ message: "Invalid WebSocket handshake" }, { status: 400 });
      }
      upgrade.socket.addEventListener("close", release);
      upgrade.socket.addEventListener("error", release);
      serveDenoSocket(hub, upgrade.socket);
      return upgrade.response;
    });
  },
};
