/**
 * The bare-broadcast floor of bench/crowd_bench.ts: a minimal WebSocket server in the app's
 * runtime and transport (`node:http` + `ws`, `reusePort` so several processes share the port)
 * that does nothing but send. Each stdin line is a message: it becomes the current one (sent to
 * every new socket at once) and its frame, built once, is written to every open socket.
 * Prints `listening` once it listens. Run by the bench: `deno run -A bench/crowd_floor.ts <port>`.
 */
import http from "node:http";
import readline from "node:readline";
import process from "node:process";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { Outgoing } from "@/lib/live/socket_io.ts";

const port = Number(Deno.args[0]);
const sockets = new Set<Duplex>();
let current: Outgoing | null = null;
const wss = new WebSocketServer({ noServer: true, maxPayload: 4096, perMessageDeflate: false });
const server = http.createServer((_req, res) => res.writeHead(404).end());
server.on("upgrade", (req, socket: Duplex, head) => {
  socket.on("error", () => socket.destroy());
  wss.handleUpgrade(req, socket, head, (ws) => {
    sockets.add(socket);
    ws.once("close", () => sockets.delete(socket));
    if (current) socket.write(current.frame);
  });
});
server.listen({ port, host: "127.0.0.1", reusePort: true, backlog: 4096 }, () => {
  console.log("listening");
});
for await (const line of readline.createInterface({ input: process.stdin })) {
  current = new Outgoing(line);
  for (const socket of sockets) socket.write(current.frame);
}
