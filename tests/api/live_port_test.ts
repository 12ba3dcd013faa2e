/**
 * The live feed against the real server, on the default single port and on a port of its own
 * (LIVE_WS_PORT): a frame announcing more than the largest message is refused (1009) from its
 * header, before any of its payload is sent, so 16 concurrent 60 MB messages from one address
 * leave the server's memory where it was; the feed keeps its rules (site, handshake, per-address
 * limits).
 */
import assert from "node:assert/strict";
import { freePort, type RunningServer, startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const KEY = "dGhlIHNhbXBsZSBub25jZQ==";

/** A raw connection to the feed: the handshake's status line, and the connection when upgraded. */
async function handshake(
  port: number,
  extraHeaders = "",
): Promise<{ status: number; text: string; conn: Deno.TcpConn }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(
    `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n` +
      `${extraHeaders}\r\n`,
  ));
  const buf = new Uint8Array(4096);
  const n = await conn.read(buf);
  const text = new TextDecoder().decode(buf.subarray(0, n ?? 0));
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text, conn };
}

/** The header of one masked text frame of `size` bytes (64-bit length, mask key 0). */
function frameHeader(size: number): Uint8Array {
  const header = new Uint8Array(14);
  header[0] = 0x81;
  header[1] = 0x80 | 127;
  new DataView(header.buffer).setBigUint64(2, BigInt(size));
  return header;
}

/** The close code of the first close frame the server sends, or null if the link just ends. */
async function closeCode(conn: Deno.TcpConn): Promise<number | null> {
  const buf = new Uint8Array(256);
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A server that waits for the announced payload never answers: give up after 5 s.
  const n = await Promise.race([
    conn.read(buf).catch(() => null),
    new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 5000)),
  ]);
  clearTimeout(timer);
  if (!n || (buf[0] & 0x0f) !== 0x8) return null;
  return (buf[2] << 8) | buf[3];
}

function closeQuietly(conn: Deno.TcpConn): void {
  try {
    conn.close();
  } catch {
    // closed by the server
  }
}

function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function withLivePort(run: (server: RunningServer, port: number) => Promise<void>) {
  const port = freePort();
  const server = await startServer({ env: { LIVE_WS_PORT: String(port) } });
  try {
    await run(server, port);
  } finally {
    await server.stop();
  }
}

Deno.test("[live port] /ws on its own port: pages point there, the main port's /ws is gone", async () => {
  await withLivePort(async (server, port) => {
    const page = await fetch(`${server.url}/leaderboard/4`);
    assert.equal(page.status, 200);
    const csp = page.headers.get("content-security-policy") ?? "";
    assert.match(csp, new RegExp(`connect-src [^;]*ws://127\\.0\\.0\\.1:${port}`));
    assert.match(await page.text(), new RegExp(`"socketPort":${port}`), "the island gets the port");

    const main = await fetch(`${server.url}/ws`, {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": KEY,
        "sec-websocket-version": "13",
      },
    });
    assert.equal(main.status, 404);
    assert.match((await main.json()).message, new RegExp(`port ${port}`));

    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const answers: string[] = [];
    const pong = new Promise<void>((resolve, reject) => {
      socket.onmessage = (e) => {
        answers.push(String(e.data));
        if (String(e.data).includes("pong")) resolve();
      };
      socket.onerror = () => reject(new Error("socket error"));
    });
    await new Promise((resolve) => socket.onopen = resolve);
    socket.send(JSON.stringify({ type: "join", competitionId: 4 }));
    socket.send(JSON.stringify({ type: "ping" }));
    await pong;
    assert.equal(answers.some((a) => a.includes('"type":"error"')), false, answers.join("\n"));
    const closed = new Promise((resolve) => socket.onclose = resolve);
    socket.close();
    await closed;

    const other = await fetch(`http://127.0.0.1:${port}/anything`);
    assert.equal(other.status, 404);
    await other.body?.cancel();
  });
});

Deno.test("[live port] an oversized frame is refused from its header, before its payload", async () => {
  await withLivePort(async (_server, port) => {
    const { status, conn } = await handshake(port);
    assert.equal(status, 101);
    try {
      await conn.write(frameHeader(60_000_000)); // 60 MB announced, not one byte of it sent
      assert.equal(await closeCode(conn), 1009);
    } finally {
      closeQuietly(conn);
    }
    const { status: small, conn: ok } = await handshake(port);
    assert.equal(small, 101, "the address may connect again");
    closeQuietly(ok);
  });
});

/** 16 concurrent 60 MB messages from one address to `port`'s /ws; the serve process's RSS growth. */
async function floodGrowthMb(server: RunningServer, port: number): Promise<number> {
  const pid = server.servePid();
  assert.ok(pid, "the serve process");
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => peak = Math.max(peak, rssMb(pid)), 10);
  const size = 60_000_000;
  const outcomes = await Promise.all(Array.from({ length: 16 }, async () => {
    const { status, conn } = await handshake(port);
    try {
      if (status !== 101) return status;
      await conn.write(frameHeader(size));
      const chunk = new Uint8Array(1 << 20).fill(97);
      // Send what the server lets through until it closes the connection.
      try {
        for (let sent = 0; sent < size;) sent += await conn.write(chunk);
      } catch {
        // the server closed the connection
      }
      return "closed";
    } finally {
      closeQuietly(conn);
    }
  }));
  // RSS keeps being sampled for half a second after the flood: late growth counts too.
  await new Promise((resolve) => setTimeout(resolve, 500));
  clearInterval(sampler);
  // At least the 8 sockets an address may hold were upgraded (a handshake that comes after one
  // of them was cut may take its place); the others were refused with 429.
  const closed = outcomes.filter((o) => o === "closed").length;
  assert.ok(closed >= 8, `${closed} upgraded`);
  assert.equal(closed + outcomes.filter((o) => o === 429).length, 16);
  return peak - before;
}

Deno.test("[live port] 16 concurrent 60 MB messages from one address: RSS grows < 50 MB", async () => {
  await withLivePort(async (server, port) => {
    const growth = await floodGrowthMb(server, port);
    assert.ok(growth < 50, `RSS grew ${growth.toFixed(1)} MB`);
  });
});

Deno.test("[live port] default configuration: /ws on the main port refuses an oversized frame from its header", async () => {
  const server = await startServer();
  try {
    const port = Number(new URL(server.url).port);
    const { status, conn } = await handshake(port);
    assert.equal(status, 101);
    try {
      await conn.write(frameHeader(60_000_000));
      assert.equal(await closeCode(conn), 1009);
    } finally {
      closeQuietly(conn);
    }
    const growth = await floodGrowthMb(server, port);
    assert.ok(growth < 50, `RSS grew ${growth.toFixed(1)} MB`);
    const page = await fetch(`${server.url}/leaderboard/4`);
    assert.equal(page.status, 200, "the same port serves the pages");
    await page.body?.cancel();
  } finally {
    await server.stop();
  }
});

Deno.test("[live port] another site's page, a bad handshake and a ninth socket are refused", async () => {
  await withLivePort(async (server, port) => {
    const foreign = await handshake(port, "Origin: http://evil.example\r\n");
    assert.equal(foreign.status, 403);
    assert.match(foreign.text, /x-content-type-options: nosniff/i, "with the security headers");
    closeQuietly(foreign.conn);
    const ownPage = await handshake(port, `Origin: ${server.url}\r\n`);
    assert.equal(ownPage.status, 101, "the site's own pages may connect");
    closeQuietly(ownPage.conn);

    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n",
    ));
    const buf = new Uint8Array(2048);
    const n = await conn.read(buf);
    assert.match(new TextDecoder().decode(buf.subarray(0, n ?? 0)), /^HTTP\/1\.1 400 /);
    closeQuietly(conn);

    // The closed sockets' places are given back once the server sees them close: a 429 until
    // then is retried.
    const open = [];
    for (let i = 0; i < 8; i++) {
      open.push(
        await waitFor(`socket ${i + 1} of 8 upgraded`, async () => {
          const attempt = await handshake(port);
          if (attempt.status === 101) return attempt;
          closeQuietly(attempt.conn);
          return null;
        }),
      );
    }
    const ninth = await handshake(port);
    assert.equal(ninth.status, 429);
    closeQuietly(ninth.conn);
    for (const o of open) closeQuietly(o.conn);
  });
});
