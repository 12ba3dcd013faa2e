/**
 * The bare-broadcast floor of bench/crowd_bench.ts: a minimal WebSocket server in the app's
 * runtime and transport (`node:http` + `ws`, `reusePort` so several processes share the port)
 * that does nothing but send. Each stdin line is a message: it becomes the current one (sent to
 * every new socket at once) and its frame, built once, is written to every open socket.
 * Prints `listening` once it listens. Run by the bench: `deno run -A bench/crowd_floor.ts <port>`.
 * It negotiates permessage-deflate as the app does and writes the same shared compressed frame to
 * the sockets that took it: the floor sends the same bytes on the wire.
 */
import http from "node:http";
import readline from "node:readline";
import process from "node:process";
import type { Duplex } from "node:stream";
import { Outgoing } from "@/lib/live/socket_io.ts";
import {
  keepShareableDeflateOffers,
  liveWebSocketServer,
  releaseInflater,
} from "@/lib/live/ws_node.ts";

const port = Number(Deno.args[0]);
/** Each open socket, and whether it takes compressed frames. */
const sockets = new Map<Duplex, boolean>();
let current: Outgoing | null = null;
const wss = liveWebSocketServer(4096);
const frameFor = (message: Outgoing, deflated: boolean) =>
  deflated ? message.deflatedFrame : message.frame;
const server = http.createServer((_req, res) => res.writeHead(404).end());
server.on("upgrade", (req, socket: Duplex, head) => {
  socket.on("error", () => socket.destroy());
  keepShareableDeflateOffers(req);
  wss.handleUpgrade(req, socket, head, (ws) => {
    const deflated = ws.extensions.split(",").includes("permessage-deflate");
    sockets.set(socket, deflated);
    ws.once("close", () => sockets.delete(socket));
    ws.on("message", () => setImmediate(() => releaseInflater(ws)));
    if (current) socket.write(frameFor(current, deflated));
  });
});
server.listen({ port, host: "127.0.0.1", reusePort: true, backlog: 4096 }, () => {
  console.log("listening");
});
for await (const line of readline.createInterface({ input: process.stdin })) {
  current = new Outgoing(line);
  for (const [socket, deflated] of sockets) socket.write(frameFor(current, deflated));
}
