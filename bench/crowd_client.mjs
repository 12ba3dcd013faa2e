/**
 * The load generator of bench/crowd_bench.ts, run by Node (cheap sockets, its own process):
 * `node bench/crowd_client.mjs <port> <sockets> <firstAddress> <competitionId>` opens `sockets`
 * raw WebSocket connections to 127.0.0.1:<port>/ws, 8 per loopback source address from
 * 127.<firstAddress…> (the server's per-address limit), and joins the competition on each. It
 * prints `ready <n>` once every socket got its first `game_events_update`; then for each stdin line
 * `expect <eventId> <t0>` it prints `latencies <json>`: per socket, the milliseconds from `t0`
 * (wall clock) to the `game_events_update` whose newest event is `eventId` (null if none came
 * within 10 s). Frames are parsed only as far as their header and first bytes; pings get pongs.
 * Like a browser, each socket offers permessage-deflate (CROWD_DEFLATE=0 to not) and, when the
 * server takes it, sends its join compressed; a compressed message is inflated once per distinct
 * payload (every socket gets the same shared frame), so the load generator does not pay the
 * inflate a browser pays on its own device.
 */
import net from "node:net";
import process from "node:process";
import readline from "node:readline";
import zlib from "node:zlib";

const [port, count, firstAddress, cid] = process.argv.slice(2).map(Number);
const PER_ADDRESS = 8;
const NEWEST = /^\{"type":"game_events_update","competitionId":\d+,"data":\[\{"id":(\d+)/;
const wallNow = () => performance.timeOrigin + performance.now();

/** A masked client frame (mask key 0, so the payload stays as it is). */
function clientFrame(opcode, payload) {
  const head = Buffer.from([0x80 | opcode, 0x80 | payload.length, 0, 0, 0, 0]);
  return Buffer.concat([head, payload]);
}
const JOIN_TEXT = Buffer.from(JSON.stringify({ type: "join", competitionId: cid }));
const JOIN = clientFrame(1, JOIN_TEXT);
const OFFER_DEFLATE = process.env.CROWD_DEFLATE !== "0";
/** The join compressed as RFC 7692 says: sync flush, its last 4 bytes dropped; RSV1 set. */
const DEFLATED_JOIN = (() => {
  const out = zlib.deflateRawSync(JOIN_TEXT, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const frame = clientFrame(1, out.subarray(0, out.length - 4));
  frame[0] |= 0x40;
  return frame;
})();
/** The newest event id of each distinct compressed payload seen (latin1 string → id or -1). */
const inflated = new Map();

function newestOf(text) {
  const match = NEWEST.exec(text);
  return match ? Number(match[1]) : -1;
}

function newestOfCompressed(payload) {
  const key = payload.toString("latin1");
  let id = inflated.get(key);
  if (id === undefined) {
    const data = Buffer.concat([payload, Buffer.from([0, 0, 0xff, 0xff])]);
    const text = zlib.inflateRawSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    id = newestOf(text.toString("latin1", 0, 120));
    inflated.set(key, id);
  }
  return id;
}

/** Newest event id each socket saw, and when. */
const newest = new Int32Array(count).fill(-1);
const seenAt = new Float64Array(count);
let ready = 0;
let onReady = () => {};

function connect(i) {
  const a = firstAddress + Math.floor(i / PER_ADDRESS);
  const localAddress = `127.${(a >> 16) & 255}.${(a >> 8) & 255}.${a & 255}`;
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress });
    let upgraded = false;
    let buf = Buffer.alloc(0);
    socket.setNoDelay(true);
    socket.on("connect", () =>
      socket.write(
        `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
          "Sec-WebSocket-Version: 13\r\n" +
          (OFFER_DEFLATE
            ? "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
            : "") +
          "\r\n",
      ));
    socket.on("error", () => resolve(false));
    socket.on("close", () => resolve(false));
    socket.on("data", (data) => {
      buf = buf.length ? Buffer.concat([buf, data]) : data;
      if (!upgraded) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        if (!buf.subarray(0, 12).toString("latin1").includes(" 101")) {
          socket.destroy();
          return resolve(false);
        }
        upgraded = true;
        const deflated = /permessage-deflate/i.test(buf.toString("latin1", 0, end));
        buf = buf.subarray(end + 4);
        socket.write(deflated ? DEFLATED_JOIN : JOIN);
        resolve(true);
      }
      while (buf.length >= 2) {
        let size = buf[1] & 127;
        let offset = 2;
        if (size === 126) {
          if (buf.length < 4) return;
          size = buf.readUInt16BE(2);
          offset = 4;
        } else if (size === 127) {
          if (buf.length < 10) return;
          size = Number(buf.readBigUInt64BE(2));
          offset = 10;
        }
        if (buf.length < offset + size) return;
        const opcode = buf[0] & 15;
        if (opcode === 9) socket.write(clientFrame(10, buf.subarray(offset, offset + size)));
        if (opcode === 1) {
          const id = buf[0] & 0x40
            ? newestOfCompressed(buf.subarray(offset, offset + size))
            : newestOf(buf.toString("latin1", offset, offset + 120));
          if (id >= 0) {
            if (newest[i] === -1 && ++ready === count) onReady();
            newest[i] = id;
            seenAt[i] = wallNow();
          }
        }
        buf = buf.subarray(offset + size);
      }
    });
  });
}

const BATCH = 400;
let open = 0;
for (let i = 0; i < count; i += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, count - i) }, (_, j) => connect(i + j));
  open += (await Promise.all(batch)).filter(Boolean).length;
}
if (open < count) console.error(`crowd client: ${count - open} of ${count} sockets not upgraded`);
await new Promise((resolve) => {
  onReady = resolve;
  if (ready >= open) resolve();
  setTimeout(resolve, 30_000);
});
console.log(`ready ${ready}`);

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const [word, id, t0] = line.split(" ");
  if (word !== "expect") continue;
  const target = Number(id);
  const deadline = Date.now() + 10_000;
  const done = () => newest.every((n) => n >= target);
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const latencies = Array.from(
    newest,
    (n, i) => (n >= target ? +(seenAt[i] - t0).toFixed(1) : null),
  );
  console.log(`latencies ${JSON.stringify(latencies)}`);
}
process.exit(0);
