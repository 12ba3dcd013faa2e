/**
 * The server of the live push bench (bench/rush_live_bench.ts), run with `deno serve` (one isolate)
 * or `deno serve --parallel` (DENO_JOBS isolates, one port): each isolate opens the KV file of
 * LIVE_BENCH_KV and its own live hub, exactly as an app isolate does.
 * - `/ws`: the hub's WebSocket, which first says `{type: "isolate", id}` (which isolate took it);
 * - `POST /goal` `{cid, playerId, minute}`: writes a GOAL through lib/db on this isolate and
 *   answers `{id, isolate}`;
 * - `/stats`: this isolate's id, RSS and hub stats.
 */
import { createGameEvent } from "@/lib/db/events.ts";
import { startLiveHub } from "@/lib/live/hub.ts";
import { serveDenoSocket } from "@/lib/live/transports.ts";

const kv = await Deno.openKv(Deno.env.get("LIVE_BENCH_KV"));
const hub = startLiveHub(kv);
const isolate = crypto.randomUUID().slice(0, 8);

export default {
  async fetch(req) {
    const { pathname } = new URL(req.url);
    if (pathname === "/ws") {
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.addEventListener("open", () => {
        socket.send(JSON.stringify({ type: "isolate", id: isolate }));
      });
      serveDenoSocket(hub, socket);
      return response;
    }
    if (pathname === "/goal" && req.method === "POST") {
      const { cid, playerId, minute } = await req.json();
      const event = await createGameEvent(kv, cid, { playerId, eventType: "GOAL", minute });
      return Response.json({ id: event.id, isolate });
    }
    if (pathname === "/stats") {
      return Response.json({ isolate, rssMb: Deno.memoryUsage().rss / 1e6, ...hub.stats() });
    }
    return new Response("Not found", { status: 404 });
  },
} satisfies Deno.ServeDefaultExport;
