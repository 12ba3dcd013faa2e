/**
 * The live feed compressed (permessage-deflate) on the served port: a client that offers the
 * extension gets every broadcast as one shared compressed frame that inflates to exactly the
 * message an uncompressed client gets; a client's own compressed messages are read, again after
 * its inflater was let go; an offer the shared frame cannot serve (a smaller server window) and a
 * client without the extension get plain frames; a compressed message too big once inflated is
 * refused with 1009.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { constants as zlibConstants, deflateRawSync, inflateRawSync } from "node:zlib";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { listenNodeHttp } from "@/lib/http/node_server.ts";
import { MAX_MESSAGE_CHARS } from "@/lib/live/hub.ts";
import { makeTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { freePort } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const KEY = "dGhlIHNhbXBsZSBub25jZQ==";
const DEFLATE_OFFER = "permessage-deflate; client_max_window_bits";

interface Frame {
  opcode: number;
  compressed: boolean;
  payload: Uint8Array;
}

/** A raw client: the handshake's answer, frames as they arrive on the wire, masked sends. */
class RawClient {
  readonly frames: Frame[] = [];
  response = "";
  #buffer = new Uint8Array(0);
  #conn: Deno.TcpConn;
  #reading: Promise<void>;

  private constructor(conn: Deno.TcpConn) {
    this.#conn = conn;
    this.#reading = this.#read();
  }

  static async open(port: number, extensions: string | null): Promise<RawClient> {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    const client = new RawClient(conn);
    await conn.write(new TextEncoder().encode(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n` +
        (extensions ? `Sec-WebSocket-Extensions: ${extensions}\r\n` : "") + "\r\n",
    ));
    await waitFor("the handshake's answer", () => client.response);
    return client;
  }

  async #read(): Promise<void> {
    const chunk = new Uint8Array(65_536);
    for (;;) {
      const n = await this.#conn.read(chunk).catch(() => null);
      if (n === null) return;
      const joined = new Uint8Array(this.#buffer.length + n);
      joined.set(this.#buffer);
      joined.set(chunk.subarray(0, n), this.#buffer.length);
      this.#buffer = joined;
      if (!this.response) {
        const end = new TextDecoder().decode(this.#buffer).indexOf("\r\n\r\n");
        if (end < 0) continue;
        this.response = new TextDecoder().decode(this.#buffer.subarray(0, end));
        this.#buffer = this.#buffer.subarray(end + 4);
      }
      this.#takeFrames();
    }
  }

  #takeFrames(): void {
    let b = this.#buffer;
    while (b.length >= 2) {
      let size = b[1] & 127;
      let offset = 2;
      const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      if (size === 126) [size, offset] = [view.getUint16(2), 4];
      if (size === 127) [size, offset] = [Number(view.getBigUint64(2)), 10];
      if (b.length < offset + size) return;
      this.frames.push({
        opcode: b[0] & 15,
        compressed: (b[0] & 0x40) !== 0,
        payload: b.slice(offset, offset + size),
      });
      this.#buffer = b = b.subarray(offset + size);
    }
  }

  /** Sends a masked text frame (mask key 0), compressed (RSV1) when `compressed`. */
  async send(payload: Uint8Array, compressed = false): Promise<void> {
    const size = payload.length;
    const head = size < 126 ? [size | 0x80] : [126 | 0x80, size >> 8, size & 255];
    const frame = new Uint8Array([compressed ? 0xc1 : 0x81, ...head, 0, 0, 0, 0, ...payload]);
    await this.#conn.write(frame);
  }

  /** The first frame after `from` whose text matches, inflated when compressed. */
  async message(match: (text: string) => boolean, from = 0): Promise<Frame & { text: string }> {
    return await waitFor("a matching message", () => {
      for (const frame of this.frames.slice(from)) {
        if (frame.opcode === 8) throw new Error(`closed: ${closeCodeOf(frame)}`);
        if (frame.opcode !== 1) continue;
        const text = new TextDecoder().decode(
          frame.compressed ? inflate(frame.payload) : frame.payload,
        );
        if (match(text)) return { ...frame, text };
      }
      return null;
    }, { timeoutMs: 5000 });
  }

  async close(): Promise<void> {
    try {
      this.#conn.close();
    } catch {
      // closed by the server
    }
    await this.#reading;
  }
}

function closeCodeOf(frame: Frame): number {
  return (frame.payload[0] << 8) | frame.payload[1];
}

/** RFC 7692 §7.2.2: the receiver puts back the 4 bytes the sender dropped, then inflates. */
function inflate(payload: Uint8Array): Uint8Array {
  const data = Buffer.concat([payload, new Uint8Array([0, 0, 0xff, 0xff])]);
  return inflateRawSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
}

/** What a client compresses, as RFC 7692 §7.2.1 says (browsers do this to every message). */
function deflate(text: string): Uint8Array {
  const out = deflateRawSync(new TextEncoder().encode(text), {
    finishFlush: zlibConstants.Z_SYNC_FLUSH,
  });
  return out.subarray(0, out.length - 4);
}

const join = (cid: number) => JSON.stringify({ type: "join", competitionId: cid });

/** An app with a LIVE competition of 40 events, its /ws served by the real node server. */
async function withServedFeed(
  run: (port: number, cid: number, goal: () => Promise<unknown>) => Promise<void>,
): Promise<void> {
  const app = await makeTestApp();
  const port = freePort();
  const server = await listenNodeHttp(app.services, {
    hostname: "127.0.0.1",
    port,
    handler: app.handler,
    crossSite: () => false,
  });
  try {
    const competition = await makeCompetition(app.kv);
    await makeEntry(app.kv, competition);
    await updateCompetition(app.kv, competition.id, { status: "LIVE" });
    for (let minute = 1; minute <= 40; minute++) {
      const player = competition.players[minute % competition.players.length];
      await createGameEvent(app.kv, competition.id, {
        playerId: player.id,
        eventType: "SAVE",
        minute,
      });
    }
    const scorer = competition.players[0].id;
    await run(
      port,
      competition.id,
      () =>
        createGameEvent(app.kv, competition.id, {
          playerId: scorer,
          eventType: "GOAL",
          minute: 90,
        }),
    );
  } finally {
    await app.services.hub.close();
    await server.close();
    await app.close();
  }
}

const isEvents = (text: string) => text.startsWith('{"type":"game_events_update"');

Deno.test("[live deflate] a broadcast is one compressed frame that inflates to the plain message", async () => {
  await withServedFeed(async (port, cid, goal) => {
    const packed = await RawClient.open(port, DEFLATE_OFFER);
    const plain = await RawClient.open(port, null);
    try {
      assert.match(packed.response, /^HTTP\/1\.1 101 /);
      assert.match(
        packed.response,
        /sec-websocket-extensions: permessage-deflate; server_no_context_takeover; client_no_context_takeover/i,
      );
      assert.doesNotMatch(plain.response, /sec-websocket-extensions/i);

      // The join, compressed as browsers send it, is read and answered.
      await packed.send(deflate(join(cid)), true);
      await plain.send(new TextEncoder().encode(join(cid)));
      const first = await packed.message(isEvents);
      const firstPlain = await plain.message(isEvents);
      assert.ok(first.compressed, "the events list came compressed");
      assert.ok(!firstPlain.compressed);
      assert.equal(first.text, firstPlain.text, "the same message, byte for byte");
      assert.ok(
        first.payload.length * 4 < firstPlain.payload.length,
        `${first.payload.length} B on the wire for ${firstPlain.payload.length} B`,
      );

      // A broadcast (a new event) reaches both the same; a second compressed message is read
      // after the first one's inflater was let go.
      const seen = packed.frames.length;
      const seenPlain = plain.frames.length;
      await packed.send(deflate(JSON.stringify({ type: "ping" })), true);
      assert.equal((await packed.message((t) => t === '{"type":"pong"}', seen)).compressed, false);
      await goal();
      const next = await packed.message((t) => isEvents(t) && t.includes('"minute":90'), seen);
      const nextPlain = await plain.message(
        (t) => isEvents(t) && t.includes('"minute":90'),
        seenPlain,
      );
      assert.ok(next.compressed);
      assert.equal(next.text, nextPlain.text);
    } finally {
      await packed.close();
      await plain.close();
    }
  });
});

Deno.test("[live deflate] an offer asking a smaller server window gets plain frames", async () => {
  await withServedFeed(async (port, cid) => {
    const client = await RawClient.open(
      port,
      "permessage-deflate; server_max_window_bits=10, x-webkit-deflate-frame",
    );
    try {
      assert.match(client.response, /^HTTP\/1\.1 101 /);
      assert.doesNotMatch(client.response, /sec-websocket-extensions/i);
      await client.send(new TextEncoder().encode(join(cid)));
      assert.equal((await client.message(isEvents)).compressed, false);
    } finally {
      await client.close();
    }
  });
});

Deno.test("[live deflate] a compressed message too big once inflated is refused with 1009", async () => {
  await withServedFeed(async (port) => {
    const client = await RawClient.open(port, DEFLATE_OFFER);
    try {
      // A few hundred bytes on the wire, far more than the largest message once inflated.
      const bomb = deflate(
        JSON.stringify({ type: "ping", pad: "x".repeat(MAX_MESSAGE_CHARS * 8) }),
      );
      assert.ok(bomb.length < 65_536);
      await client.send(bomb, true);
      const close = await waitFor("a close frame", () => client.frames.find((f) => f.opcode === 8));
      assert.equal(closeCodeOf(close), 1009);
    } finally {
      await client.close();
    }
  });
});
