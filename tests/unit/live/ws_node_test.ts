/**
 * The `ws` internals lib/live/ws_node.ts relies on, pinned to the version it was written against:
 * this test fails when package.json's `ws` changes (review ws_node.ts, then move `WS_VERSION`),
 * and exercises each internal on a real `ws` socket: the Receiver's `_state` (idle is 0, never the
 * inflating state), the permessage-deflate extension's `_inflate` (made for a compressed message,
 * freed by `releaseInflater`, made again for the next one), and writing whole frames to the
 * upgraded connection beside `ws`'s own.
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket as WsClient } from "ws";
import type { WebSocket as NodeWebSocket } from "ws";
import { Outgoing } from "@/lib/live/socket_io.ts";
import {
  keepShareableDeflateOffers,
  liveWebSocketServer,
  releaseInflater,
  WS_VERSION,
} from "@/lib/live/ws_node.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

interface WsInternals {
  _receiver: { _state: number };
  _extensions: Record<string, { _inflate: unknown }>;
}

Deno.test("[ws internals] package.json pins the ws version ws_node.ts was reviewed against", async () => {
  const root = new URL("../../../", import.meta.url);
  const pkg = JSON.parse(await Deno.readTextFile(new URL("package.json", root)));
  assert.equal(pkg.dependencies?.ws, WS_VERSION, "review lib/live/ws_node.ts, then WS_VERSION");
  const installed = JSON.parse(
    await Deno.readTextFile(new URL("node_modules/ws/package.json", root)),
  );
  assert.equal(installed.version, WS_VERSION);
});

Deno.test("[ws internals] the inflater is freed after a message and made again for the next; raw frames reach the client", async () => {
  const wss = liveWebSocketServer(4096);
  const served: { ws: NodeWebSocket; raw: Duplex }[] = [];
  const received: string[] = [];
  const server = http.createServer();
  server.on("upgrade", (req, raw: Duplex, head) => {
    keepShareableDeflateOffers(req);
    wss.handleUpgrade(req, raw, head, (ws) => {
      served.push({ ws, raw });
      ws.on("message", (data: Buffer) => received.push(data.toString("utf8")));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const client = new WsClient(`ws://127.0.0.1:${port}/`, { perMessageDeflate: true });
  const got: string[] = [];
  client.on("message", (data: Buffer) => got.push(data.toString("utf8")));
  try {
    await new Promise((
      resolve,
      reject,
    ) => (client.once("open", resolve), client.once("error", reject)));
    await waitFor("the server socket", () => served.length === 1);
    const { ws, raw } = served[0];
    assert.ok(ws.extensions.includes("permessage-deflate"));
    const internals = ws as unknown as WsInternals;
    assert.equal(internals._receiver._state, 0, "an idle Receiver is in GET_INFO (0)");

    const text = JSON.stringify({ type: "join", competitionId: 1, pad: "x".repeat(2000) });
    client.send(text, { compress: true });
    await waitFor("the first message", () => received.length === 1);
    assert.equal(received[0], text);
    const deflate = internals._extensions["permessage-deflate"];
    assert.ok(deflate._inflate, "ws made an inflater for the compressed message");
    releaseInflater(ws);
    assert.equal(deflate._inflate, null, "released");

    client.send(text, { compress: true });
    await waitFor("the second message", () => received.length === 2);
    assert.equal(received[1], text, "read again with a new inflater");
    assert.ok(deflate._inflate);

    // A whole frame written to the connection beside ws arrives as a message, compressed or not.
    const message = new Outgoing(JSON.stringify({ type: "ping", pad: "y".repeat(500) }));
    raw.write(message.deflatedFrame);
    raw.write(message.frame);
    await waitFor("both raw frames", () => got.length === 2);
    assert.deepEqual(got, [message.text, message.text]);
  } finally {
    client.terminate();
    for (const { ws } of served) ws.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
