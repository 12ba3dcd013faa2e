/**
 * An eviction at crowd scale: `deno task bench eviction`. Two app processes (serve.ts, one
 * isolate each, as `npm start` runs them) share one KV file; EVICTION_SOCKETS (default 5,000)
 * pages' sockets are joined to a LIVE competition on process A. A gets SIGINT, as Deno Deploy
 * sends an isolate it evicts: it closes every socket with the restart hint (1012), and each page
 * reconnects after the delay the browser code takes (`reconnectDelay` of
 * lib/client/live/reconnect.ts) to process B (where a load balancer would send it). GOALs are
 * written every 250 ms from 1 s before the signal to 6 s after it. Measured: the time from the
 * signal until each page has rejoined on B and got its events (p50/p99/max; target: all within
 * 10 s), and every page's final events message against the store's (missed: pages whose last
 * message is not the final list; target 0). Pages are raw sockets in this process (node:net, 8
 * per loopback source address, as the per-address limit of /ws wants).
 * Writes .bench-out/eviction.json.
 */
import net from "node:net";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent, listGameEvents } from "@/lib/db/events.ts";
import { reconnectDelay } from "@/lib/client/live/reconnect.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { freePort } from "@/tests/helpers/server.ts";
import { lineOf, spawnServe } from "./processes.ts";

const SOCKETS = Number(Deno.env.get("EVICTION_SOCKETS") ?? 5000);
const PER_ADDRESS = 8;
const TARGET_BACK_MS = 10_000;
const WRITE_EVERY_MS = 250;
const OUT = new URL("../.bench-out/eviction.json", import.meta.url);

const kvDir = await Deno.makeTempDir();
const kvPath = `${kvDir}/eviction.kv`;
const kv = await Deno.openKv(kvPath);
const competition = await makeCompetition(kv);
for (let i = 0; i < 5; i++) await makeEntry(kv, competition);
await updateCompetition(kv, competition.id, { status: "LIVE" });
const cid = competition.id;
const scorer = competition.players[0].id;
for (let minute = 1; minute <= 10; minute++) {
  await createGameEvent(kv, cid, { playerId: scorer, eventType: "SAVE", minute });
}

/** One app process (serve.ts, one isolate) on `port`, resolved once it listens. */
async function startServer(port: number): Promise<Deno.ChildProcess> {
  const server = spawnServe(port, kvPath);
  await lineOf(server, "Listening on");
  (async () => {
    while (!(await server.lines.next()).done) {
      // drained
    }
  })();
  return server.child;
}

/** A masked client frame (mask key 0). */
function clientFrame(opcode: number, payload: Uint8Array): Uint8Array {
  const frame = new Uint8Array(6 + payload.length);
  frame[0] = 0x80 | opcode;
  frame[1] = 0x80 | payload.length;
  frame.set(payload, 6);
  return frame;
}
const JOIN = clientFrame(
  1,
  new TextEncoder().encode(JSON.stringify({ type: "join", competitionId: cid })),
);

/** One page: its socket, the last events message it got, when it came back after the signal. */
interface Page {
  index: number;
  address: string;
  last: string | null;
  closeCode: number | null;
  reconnects: number;
  backAt: number | null;
}

let signalAt = 0;
let onJoined = () => {};

/** Opens a socket of `page` to `port` and joins; reconnects to `next` when it closes. */
function open(page: Page, port: number, next: number): void {
  const socket = net.connect({ port, host: "127.0.0.1", localAddress: page.address });
  let upgraded = false;
  let gotEvents = false;
  let buf: Uint8Array = new Uint8Array(0);
  socket.setNoDelay(true);
  socket.on("connect", () =>
    socket.write(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
        "Sec-WebSocket-Version: 13\r\n\r\n",
    ));
  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    if (stopping) return;
    // Unannounced: 1006; the attempt count restarts once a socket got its events.
    const code = page.closeCode ?? 1006;
    page.closeCode = null;
    const attempt = gotEvents ? 0 : ++page.reconnects;
    setTimeout(() => open(page, next, next), reconnectDelay(attempt, code));
  });
  socket.on("data", (data: Uint8Array) => {
    buf = buf.length ? concat(buf, data) : data;
    if (!upgraded) {
      const text = new TextDecoder().decode(buf.subarray(0, Math.min(buf.length, 2048)));
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      if (!text.startsWith("HTTP/1.1 101")) return void socket.destroy();
      upgraded = true;
      buf = buf.subarray(end + 4);
      socket.write(JOIN);
    }
    while (buf.length >= 2) {
      let size = buf[1] & 127;
      let offset = 2;
      const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      if (size === 126) {
        if (buf.length < 4) return;
        size = view.getUint16(2);
        offset = 4;
      } else if (size === 127) {
        if (buf.length < 10) return;
        size = Number(view.getBigUint64(2));
        offset = 10;
      }
      if (buf.length < offset + size) return;
      const opcode = buf[0] & 15;
      const payload = buf.subarray(offset, offset + size);
      if (opcode === 9) socket.write(clientFrame(10, payload));
      if (opcode === 8) {
        page.closeCode = size >= 2 ? view.getUint16(offset) : 1005;
        socket.end(clientFrame(8, payload.subarray(0, 2)));
      }
      if (opcode === 1) {
        const text = new TextDecoder().decode(payload);
        if (text.startsWith('{"type":"game_events_update"')) {
          page.last = text;
          if (!gotEvents) {
            gotEvents = true;
            if (signalAt > 0 && page.backAt === null) page.backAt = performance.now() - signalAt;
            onJoined();
          }
        }
      }
      buf = buf.subarray(offset + size);
    }
  });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const all = new Uint8Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function until(what: string, done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) {
      console.error(`eviction: ${what}: not within ${timeoutMs} ms`);
      return false;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

let stopping = false;
const portA = freePort();
const portB = freePort();
const [a, b] = await Promise.all([startServer(portA), startServer(portB)]);
const pages: Page[] = Array.from({ length: SOCKETS }, (_, index) => {
  const n = (1 << 16) + Math.floor(index / PER_ADDRESS); // 127.1.x.y onwards
  return {
    index,
    address: `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    last: null,
    closeCode: null,
    reconnects: 0,
    backAt: null,
  };
});
let joined = 0;
onJoined = () => joined++;
for (let i = 0; i < SOCKETS; i += 400) {
  for (const page of pages.slice(i, i + 400)) open(page, portA, portB);
  await until("a batch joined", () => joined >= Math.min(SOCKETS, i + 400), 30_000);
}
console.log(`eviction: ${joined} of ${SOCKETS} pages joined on process A`);

// GOALs from 1 s before the signal to 6 s after it.
const written: number[] = [];
const writing = (async () => {
  const start = performance.now();
  while (performance.now() - start < 7000) {
    const event = await createGameEvent(kv, cid, { playerId: scorer, eventType: "GOAL" });
    written.push(event.id);
    await new Promise((r) => setTimeout(r, WRITE_EVERY_MS));
  }
})();
await new Promise((r) => setTimeout(r, 1000));
signalAt = performance.now();
a.kill("SIGINT");
const aStatus = a.status.then((status) => ({
  code: status.code,
  stoppedMs: Math.round(performance.now() - signalAt),
}));
const allBack = await until(
  "every page back",
  () => pages.every((page) => page.backAt !== null),
  30_000,
);
await writing;
const expected = JSON.stringify({
  type: "game_events_update",
  competitionId: cid,
  data: await listGameEvents(kv, cid, { limit: 50 }),
});
await until("every page has the final events", () => pages.every((p) => p.last === expected), 5000);
stopping = true;

const back = pages.map((p) => p.backAt).filter((t): t is number => t !== null).sort((x, y) =>
  x - y
);
const result = {
  sockets: SOCKETS,
  joinedOnA: joined >= SOCKETS ? SOCKETS : joined,
  processA: await aStatus,
  back: {
    pages: back.length,
    p50Ms: Math.round(percentile(back, 50)),
    p99Ms: Math.round(percentile(back, 99)),
    maxMs: Math.round(back[back.length - 1]),
  },
  reconnectFailures: pages.reduce((total, p) => total + p.reconnects, 0),
  goalsWritten: written.length,
  missed: pages.filter((p) => p.last !== expected).length,
};
const ok = allBack && result.back.maxMs <= TARGET_BACK_MS && result.missed === 0;
console.log(JSON.stringify(result, null, 2));
console.log(
  `eviction: ${SOCKETS} pages on process A, SIGINT: A stopped in ${result.processA.stoppedMs} ms ` +
    `(exit ${result.processA.code}); ${result.back.pages} back on B, p50 ${result.back.p50Ms} / ` +
    `p99 ${result.back.p99Ms} / max ${result.back.maxMs} ms after the signal; ` +
    `${result.reconnectFailures} failed reconnects; ${result.goalsWritten} GOALs written, ` +
    `${result.missed} pages missing an update (${ok ? "within target" : "OVER target"})`,
);
b.kill("SIGTERM");
await b.status;
kv.close();
await Deno.remove(kvDir, { recursive: true });
await Deno.mkdir(new URL("./", OUT), { recursive: true });
await Deno.writeTextFile(OUT, JSON.stringify({ ...result, ok }, null, 2) + "\n");
Deno.exit(ok ? 0 : 1);
