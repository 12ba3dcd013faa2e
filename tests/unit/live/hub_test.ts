import assert from "node:assert/strict";
import http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { SocketAdmission } from "@/lib/live/admission.ts";
import { type LiveHub, startLiveHub } from "@/lib/live/hub.ts";
import { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import { type LiveSocket, MAX_BUFFERED_BYTES, Outgoing } from "@/lib/live/socket_io.ts";
import { serveNodeSocket } from "@/lib/live/ws_node.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

/** A socket without a transport: it keeps what the hub sends it. */
class RecordingSocket implements LiveSocket {
  readonly sent: Outgoing[] = [];
  closedWith: number | null = null;
  send(message: Outgoing): void {
    this.sent.push(message);
  }
  close(code: number): void {
    this.closedWith = code;
  }
  closeAndWait(): Promise<void> {
    this.closedWith = 1012;
    return Promise.resolve();
  }
  beat(): void {}
  types(): string[] {
    return this.sent.flatMap((m) => m.texts.map((text) => JSON.parse(text).type));
  }
}

/** A competition going LIVE with one entry, followed by three recording sockets on `hub`. */
async function followedContest(kv: Deno.Kv, hub: LiveHub) {
  const competition = await makeCompetition(kv);
  const entry = await makeEntry(kv, competition);
  await updateCompetition(kv, competition.id, { status: "LIVE" });
  const sockets = [new RecordingSocket(), new RecordingSocket(), new RecordingSocket()];
  for (const socket of sockets) {
    const events = hub.accept(socket);
    assert.ok(events);
    events.message(JSON.stringify({ type: "join", competitionId: competition.id }));
  }
  await waitFor(
    "sockets.every((s) => s.sent.length === 1)",
    () => sockets.every((s) => s.sent.length === 1),
  );
  const scorer = entry.playerIds?.[0] ?? competition.players[0].id;
  return { competition, sockets, scorer };
}

Deno.test("[live hub] a GOAL reaches every joined socket as one message object, its hint in the same write", async () => {
  const kv = await Deno.openKv(":memory:");
  // A generous wait: on a loaded machine the standings rebuild may take longer than the default
  // 50 ms, and then (by design, see the next test) the hint goes on its own.
  const hub = startLiveHub(kv, { hintWaitMs: 30_000 });
  try {
    const { competition, sockets, scorer } = await followedContest(kv, hub);
    await createGameEvent(kv, competition.id, { playerId: scorer, eventType: "GOAL" });
    await waitFor(
      "sockets.every((s) => s.sent.length === 2)",
      () => sockets.every((s) => s.sent.length === 2),
    );
    const [update] = sockets.map((s) => s.sent[1]);
    for (const socket of sockets) assert.equal(socket.sent[1], update, "one object for all");
    assert.deepEqual(update.texts.map((text) => JSON.parse(text).type), [
      "game_events_update",
      "leaderboard_update",
    ]);
    assert.equal(JSON.parse(update.text).data[0].eventType, "GOAL");
    const frame = update.frame;
    assert.equal(update.frame, frame, "the frame is built once: each read gives the same bytes");
    assert.equal(frame[0], 0x81, "a final text frame");
  } finally {
    await hub.close();
    kv.close();
  }
});

/** The real cache, whose standings wait while `hold` is set (a slow rebuild of a big contest). */
class HeldCache extends LeaderboardCache {
  hold: Promise<void> | null = null;
  override async standingsAt(cid: number, version: string | null) {
    await this.hold;
    return await super.standingsAt(cid, version);
  }
}

Deno.test("[live hub] slow standings never hold a GOAL back: the events go after the wait, the hint follows", async () => {
  const kv = await Deno.openKv(":memory:");
  const cache = new HeldCache(kv);
  const hub = startLiveHub(kv, { hintWaitMs: 20 }, cache);
  try {
    const { competition, sockets, scorer } = await followedContest(kv, hub);
    let release = () => {};
    cache.hold = new Promise<void>((resolve) => release = resolve);
    await createGameEvent(kv, competition.id, { playerId: scorer, eventType: "GOAL" });
    await waitFor(
      "sockets.every((s) => s.sent.length === 2)",
      () => sockets.every((s) => s.sent.length === 2),
    );
    for (const socket of sockets) {
      assert.deepEqual(socket.types().slice(1), ["game_events_update"], "the events alone");
    }
    assert.equal(JSON.parse(sockets[0].sent[1].text).data[0].eventType, "GOAL");
    cache.hold = null;
    release();
    await waitFor(
      "sockets.every((s) => s.sent.length === 3)",
      () => sockets.every((s) => s.sent.length === 3),
    );
    for (const socket of sockets) {
      assert.deepEqual(socket.types().slice(2), ["leaderboard_update"], "then the hint");
    }
  } finally {
    cache.hold = null;
    await hub.close();
    kv.close();
  }
});

Deno.test("[live hub] a full hub closes the socket with 1013 instead of serving it", async () => {
  const kv = await Deno.openKv(":memory:");
  const hub = startLiveHub(kv, { maxSockets: 1 });
  try {
    const first = new RecordingSocket();
    assert.ok(hub.accept(first));
    const second = new RecordingSocket();
    assert.equal(hub.accept(second), null);
    assert.equal(second.closedWith, 1013);
  } finally {
    await hub.close();
    kv.close();
  }
});

/** A hub stand-in that keeps the socket its transport hands over. */
function capturingHub(
  kv: Deno.Kv,
): { hub: LiveHub; socket: () => LiveSocket | null; closed: Promise<void> } {
  let captured: LiveSocket | null = null;
  let ended = () => {};
  const closed = new Promise<void>((resolve) => ended = resolve);
  const hub: LiveHub = {
    kv,
    admission: new SocketAdmission(),
    hasRoom: () => true,
    accept(socket) {
      captured = socket;
      return { message() {}, closed: () => ended() };
    },
    stats: () => ({ sockets: 0, competitions: 0, watches: 0, watchesStarted: 0 }),
    close: () => Promise.resolve(),
  };
  return { hub, socket: () => captured, closed };
}

Deno.test("[live transports] a node socket that stops reading is cut once 1 MB piles up", async () => {
  const kv = await Deno.openKv(":memory:");
  const { hub, socket, closed } = capturingHub(kv);
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const server = http.createServer();
  server.on("upgrade", (req, raw: Duplex, head) => {
    wss.handleUpgrade(req, raw, head, (ws) => serveNodeSocket(hub, ws, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
        "Sec-WebSocket-Version: 13\r\n\r\n",
    ));
    await waitFor("socket() !== null", () => socket() !== null);
    // The client never reads: the kernel's buffers fill, then the socket's own queue grows.
    const message = new Outgoing("x".repeat(64 * 1024));
    let sent = 0;
    let cut = false;
    void closed.then(() => cut = true);
    while (!cut && sent < 2000) {
      socket()!.send(message);
      sent++;
      await new Promise((r) => setTimeout(r, 0));
    }
    assert.ok(cut, "the socket was cut");
    assert.ok(sent * message.frame.length > MAX_BUFFERED_BYTES, "only after 1 MB was queued");
    assert.ok(sent < 2000, `cut after ${sent} messages, not buffered on`);
  } finally {
    conn.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    kv.close();
  }
});
