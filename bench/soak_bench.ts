/**
 * The soak test (`deno task bench soak`, not in `npm test`): the real app under mixed
 * traffic for `SOAK_SECONDS` (default 600) — visitors browsing, buyers paying for entries, an
 * admin posting live events to `SOAK_SOCKETS` (default 1000) connected sockets, fuzzed API
 * requests, and abusive clients (payment-intent spam, password guessing, socket floods, bodies
 * that drip, oversized socket messages) at the same time. Prints and writes to
 * .bench-out/soak.json: 5xx count (must be 0), entries paid vs found (0 lost, 0 doubled), server
 * RSS at start and end, and p50/p99 of normal page loads during the abuse.
 *
 * Clients come from many loopback addresses (127.x.y.z, through node:net's localAddress), as
 * real visitors come from many addresses: the per-address limits then refuse the abusers only.
 */
import net from "node:net";
import { rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import { appEnv } from "@/tests/helpers/server.ts";

const SECONDS = Number(Deno.env.get("SOAK_SECONDS") ?? 600);
const SOCKETS = Number(Deno.env.get("SOAK_SOCKETS") ?? 1000);
const OUT = new URL("../.bench-out/soak.json", import.meta.url);
const ROOT = new URL("../", import.meta.url);
const ADMIN = { username: "admin", password: "soak-admin-password" };

interface Answer {
  status: number;
  body: string;
  ms: number;
}

// --- a raw HTTP/1.1 client bound to a chosen loopback address ---------------------------------

function dechunk(raw: string): string {
  let out = "";
  let rest = raw;
  while (rest.length) {
    const eol = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) break;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
  return out;
}

function request(
  port: number,
  from: string,
  method: string,
  path: string,
  { json, headers = {}, timeoutMs = 30_000 }: {
    json?: unknown;
    headers?: Record<string, string>;
    timeoutMs?: number;
  } = {},
): Promise<Answer> {
  const started = performance.now();
  const body = json === undefined ? "" : JSON.stringify(json);
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (!has("connection")) lines.push("Connection: close");
  if (json !== undefined) lines.push("Content-Type: application/json");
  if (method !== "GET" && !has("content-length")) {
    lines.push(`Content-Length: ${new TextEncoder().encode(body).byteLength}`);
  }
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: from });
    const chunks: Uint8Array[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("connect", () => socket.write(lines.join("\r\n") + "\r\n\r\n" + body));
    socket.on("data", (d: Uint8Array) => chunks.push(d));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      const text = new TextDecoder().decode(concat(chunks));
      const split = text.indexOf("\r\n\r\n");
      const head = text.slice(0, split);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const raw = text.slice(split + 4);
      const chunked = /transfer-encoding: chunked/i.test(head);
      resolve({ status, body: chunked ? dechunk(raw) : raw, ms: performance.now() - started });
    });
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) (out.set(c, at), at += c.byteLength);
  return out;
}

// --- a raw WebSocket client (text frames only) ------------------------------------------------

interface LiveSocket {
  updates: number;
  open: boolean;
  send(text: string): void;
  close(): void;
}

function frame(text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  const n = payload.byteLength;
  const head = n < 126 ? [0x81, 0x80 | n] : [0x81, 0x80 | 126, n >> 8, n & 255];
  return concat([new Uint8Array([...head, 0, 0, 0, 0]), payload]); // mask 0: payload unchanged
}

function openSocket(port: number, from: string, onOpen: (s: LiveSocket) => void): LiveSocket {
  const socket = net.connect({ host: "127.0.0.1", port, localAddress: from });
  const live: LiveSocket = {
    updates: 0,
    open: false,
    send: (text) => socket.write(frame(text)),
    close: () => socket.destroy(),
  };
  let buffer: Uint8Array = new Uint8Array(0);
  socket.on("connect", () =>
    socket.write(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
        "Sec-WebSocket-Version: 13\r\n\r\n",
    ));
  socket.on("error", () => {});
  socket.on("close", () => live.open = false);
  socket.on("data", (d: Uint8Array) => {
    buffer = concat([buffer, d]);
    if (!live.open) {
      const text = new TextDecoder().decode(buffer);
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      if (!text.startsWith("HTTP/1.1 101")) return socket.destroy();
      live.open = true;
      buffer = buffer.subarray(end + 4);
      onOpen(live);
    }
    while (buffer.byteLength >= 2) {
      let length = buffer[1] & 127;
      let offset = 2;
      if (length === 126) [length, offset] = [(buffer[2] << 8) | buffer[3], 4];
      else if (length === 127) {
        length = Number(new DataView(buffer.buffer, buffer.byteOffset + 2).getBigUint64(0));
        offset = 10;
      }
      if (buffer.byteLength < offset + length) return;
      const payload = new TextDecoder().decode(buffer.subarray(offset, offset + length));
      const opcode = buffer[0] & 15;
      if (opcode === 1 && payload.includes("game_events_update")) live.updates++;
      if (opcode === 9) socket.write(concat([new Uint8Array([0x8a, 0x80, 0, 0, 0, 0])])); // pong
      buffer = buffer.subarray(offset + length);
    }
  });
  return live;
}

// --- the server ---------------------------------------------------------------------------------

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function rssMb(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function startServer(port: number): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: ROOT,
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
    env: appEnv(port, ":memory:", ADMIN.password, {
      DEMO_DATA: "1",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      SMTP_URL: "",
    }),
  }).spawn();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const res = await request(port, "127.0.0.1", "GET", "/readyz", { timeoutMs: 2000 });
    if (res.status === 200) return child;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("the app did not start");
}

// --- the traffic --------------------------------------------------------------------------------

interface Competition {
  id: number;
  status: string;
  maxEntries?: number;
  [key: string]: unknown;
}
interface Player {
  id: number;
  position: string;
  teamId: number;
  salary: number;
  [key: string]: unknown;
}

/** Five players of `c` that pass its rules (first combination found). */
function findPicks(c: Competition, players: Player[]): number[] {
  const rules = rulesOf(c as Parameters<typeof rulesOf>[0]);
  const n = players.length;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      for (let d = b + 1; d < n; d++) {
        for (let e = d + 1; e < n; e++) {
          for (let f = e + 1; f < n; f++) {
            const team = [players[a], players[b], players[d], players[e], players[f]];
            if (validateTeam(team as never, rules).length === 0) return team.map((p) => p.id);
          }
        }
      }
    }
  }
  throw new Error(`no valid team in competition ${c.id}`);
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

const port = freePort();
const server = await startServer(port);
const pid = server.pid;
const statuses = new Map<number, number>();
const fiveHundreds: string[] = [];
const count = (status: number, what: string) => {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  if (status >= 500) fiveHundreds.push(`${status} ${what}`);
};

try {
  const competitions = JSON.parse(
    (await request(port, "127.0.0.1", "GET", "/api/competitions")).body,
  ) as Competition[];
  const room = (c: Competition) =>
    Number(c.maxEntries ?? 1e9) - Number((c as { currentEntries?: number }).currentEntries ?? 0);
  const open = competitions.filter((c) =>
    c.status === "UPCOMING"
  ).sort((a, b) => room(b) - room(a))[0];
  const live = competitions.find((c) => c.status === "LIVE")!;
  const openPlayers = JSON.parse(
    (await request(port, "127.0.0.1", "GET", `/api/competitions/${open.id}/players`)).body,
  ) as Player[];
  const livePlayers = JSON.parse(
    (await request(port, "127.0.0.1", "GET", `/api/competitions/${live.id}/players`)).body,
  ) as Player[];
  const picks = findPicks(open, openPlayers);
  const entriesBefore = Number((open as { currentEntries?: number }).currentEntries ?? 0);
  await new Promise((r) => setTimeout(r, 1000));
  const rssStart = rssMb(pid);
  let rssPeak = rssStart;
  const sampler = setInterval(() => rssPeak = Math.max(rssPeak, rssMb(pid)), 500);
  const end = Date.now() + SECONDS * 1000;
  const running = () => Date.now() < end;
  let seq = 0;
  const address = (net8: number) => {
    const n = seq++;
    return `127.${net8}.${(n >> 8) & 255}.${(n & 255) || 1}`;
  };

  // 1,000 live sockets, 8 per address (the per-address cap), all following the LIVE contest.
  const sockets: LiveSocket[] = [];
  for (let i = 0; i < SOCKETS; i++) {
    const from = `127.2.${Math.floor(i / 8) >> 8 & 255}.${(Math.floor(i / 8) & 255) + 1}`;
    sockets.push(openSocket(port, from, (s) =>
      s.send(JSON.stringify({
        type: "join",
        competitionId: live.id,
      }))));
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 50));
  }

  const pageLoads: number[] = [];
  const browse = async () => {
    const pages = ["/", `/leaderboard/${live.id}`, `/team-selection/${open.id}`];
    while (running()) {
      const path = pages[Math.floor(Math.random() * pages.length)];
      const res = await request(port, address(3), "GET", path);
      count(res.status, `GET ${path}`);
      if (res.status === 200) pageLoads.push(res.ms);
      const api = await request(port, address(3), "GET", "/api/competitions");
      count(api.status, "GET /api/competitions");
    }
  };

  const paid: string[] = [];
  let paymentsRefused = 0;
  const buy = async () => {
    while (running()) {
      const from = address(4);
      const intent = await request(port, from, "POST", "/api/create-payment-intent", {
        json: { competitionId: open.id },
      });
      count(intent.status, "POST /api/create-payment-intent");
      if (intent.status !== 200) continue;
      const { paymentIntentId } = JSON.parse(intent.body);
      const confirm = await request(port, from, "POST", "/api/test-payments/confirm", {
        json: { paymentIntentId, cardNumber: "4242 4242 4242 4242" },
      });
      count(confirm.status, "POST /api/test-payments/confirm");
      const entry = await request(port, from, "POST", "/api/entries", {
        json: {
          competitionId: open.id,
          email: `buyer${seq}@example.com`,
          teamName: `Soak ${seq}`,
          playerIds: picks,
          stripePaymentId: paymentIntentId,
        },
      });
      count(entry.status, "POST /api/entries");
      if (entry.status === 201) paid.push(JSON.parse(entry.body).teamId);
      else paymentsRefused++;
    }
  };

  let events = 0;
  const admin = async () => {
    const headers = { "x-admin-username": ADMIN.username, "x-admin-password": ADMIN.password };
    while (running()) {
      const player = livePlayers[Math.floor(Math.random() * livePlayers.length)];
      const res = await request(
        port,
        "127.5.0.1",
        "POST",
        `/api/admin/competitions/${live.id}/events`,
        {
          json: { playerId: player.id, eventType: "GOAL", minute: 10, description: "Soak goal" },
          headers,
        },
      );
      count(res.status, "POST events");
      if (res.status === 201) events++;
      await new Promise((r) => setTimeout(r, 2000));
    }
  };

  const FUZZ_PATHS = [
    "/api/competitions/abc",
    "/api/competitions/99999999999999999999/leaderboard",
    "/api/entries/%00/details",
    "/api/create-payment-intent",
    "/api/entries",
    "/api/analytics",
    "/api/admin/login",
    "/api/test-payments/confirm",
    "/ws",
    "/api/../../etc/passwd",
  ];
  const FUZZ_BODIES = [null, {}, [], "x".repeat(70_000), { competitionId: "1; DROP" }, {
    competitionId: -1,
    playerIds: [1, 1, 1, 1, 1],
  }, { username: { $ne: 1 }, password: [] }];
  const fuzz = async () => {
    while (running()) {
      const method = ["GET", "POST", "PUT", "DELETE", "PATCH"][Math.floor(Math.random() * 5)];
      const path = FUZZ_PATHS[Math.floor(Math.random() * FUZZ_PATHS.length)];
      const json = method === "GET" ? undefined : FUZZ_BODIES[Math.floor(Math.random() * 7)];
      const res = await request(port, address(6), method, path, { json });
      count(res.status, `${method} ${path}`);
    }
  };

  const abuse = { intentSpam429: 0, guesses429: 0, socketFlood429: 0, drips408: 0, tooBig: 0 };
  const abusers = [
    async () => { // payment-intent spam from one address
      while (running()) {
        const res = await request(port, "127.9.0.1", "POST", "/api/create-payment-intent", {
          json: { competitionId: open.id },
        });
        count(res.status, "spam intent");
        if (res.status === 429) abuse.intentSpam429++;
      }
    },
    async () => { // password guessing from one address
      while (running()) {
        const res = await request(port, "127.9.0.2", "POST", "/api/admin/login", {
          json: { username: "admin", password: `guess-${Math.random()}` },
        });
        count(res.status, "guess");
        if (res.status === 429) abuse.guesses429++;
      }
    },
    async () => { // socket flood from one address: 20 handshakes at a time, each held 2 s
      const handshake = {
        Upgrade: "websocket",
        Connection: "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
      };
      while (running()) {
        const answers = await Promise.all(Array.from({ length: 20 }, () =>
          request(port, "127.9.0.3", "GET", "/ws", { headers: handshake, timeoutMs: 2000 })));
        for (const res of answers) {
          if (res.status) {
            count(res.status, "socket flood");
          }
          if (res.status === 429) {
            abuse.socketFlood429++;
          }
        }
      }
    },
    async () => { // bodies that drip: a promised 100 bytes that never come
      while (running()) {
        const res = await request(port, address(9), "POST", "/api/test-email", {
          headers: { "Content-Type": "application/json", "Content-Length": "100" },
          timeoutMs: 15_000,
        });
        if (res.status) {
          count(res.status, "drip");
        }
        if (res.status === 408) {
          abuse.drips408++;
        }
      }
    },
    async () => { // oversized socket messages (1 MB each; the app closes with 1009)
      while (running()) {
        await new Promise<void>((resolve) => {
          const s = openSocket(port, "127.9.0.5", (live) => {
            live.send("x".repeat(1 << 20));
            abuse.tooBig++;
            setTimeout(() => (live.close(), resolve()), 500);
          });
          setTimeout(() => (s.close(), resolve()), 3000);
        });
      }
    },
  ];

  console.log(
    `soak: ${SECONDS} s on port ${port}, ${SOCKETS} sockets, RSS ${rssStart.toFixed(1)} MB`,
  );
  await Promise.all([
    ...Array.from({ length: 6 }, browse),
    ...Array.from({ length: 2 }, buy),
    admin(),
    ...Array.from({ length: 2 }, fuzz),
    ...abusers.map((f) =>
      f()
    ),
  ]);
  clearInterval(sampler);
  const openSockets = sockets.filter((s) => s.open).length;
  const updates = sockets.reduce((n, s) => n + s.updates, 0);
  for (const s of sockets) s.close();

  // Every paid entry is there exactly once.
  let lost = 0;
  for (const teamId of paid) {
    const res = await request(port, "127.0.0.1", "GET", `/api/entries/${teamId}`);
    if (res.status !== 200) lost++;
  }
  const after = JSON.parse(
    (await request(port, "127.0.0.1", "GET", `/api/competitions/${open.id}`)).body,
  ) as { currentEntries?: number };
  const added = Number(after.currentEntries ?? 0) - entriesBefore;
  const doubled = Math.max(0, added - paid.length) + (paid.length - new Set(paid).size);
  const rssEnd = rssMb(pid);
  const result = {
    seconds: SECONDS,
    requests: [...statuses.values()].reduce((a, b) => a + b, 0),
    statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    fiveHundreds: fiveHundreds.length,
    fiveHundredSamples: fiveHundreds.slice(0, 10),
    entries: { paid: paid.length, lost, doubled, refusedAfterPayment: paymentsRefused },
    sockets: { opened: SOCKETS, openAtEnd: openSockets, eventUpdatesReceived: updates, events },
    abuse,
    rssMb: { start: +rssStart.toFixed(1), peak: +rssPeak.toFixed(1), end: +rssEnd.toFixed(1) },
    pageLoadMs: {
      count: pageLoads.length,
      p50: +percentile(pageLoads, 0.5).toFixed(1),
      p99: +percentile(pageLoads, 0.99).toFixed(1),
    },
  };
  console.log(JSON.stringify(result, null, 2));
  await Deno.mkdir(new URL("./", OUT), { recursive: true });
  await Deno.writeTextFile(OUT, JSON.stringify(result, null, 2) + "\n");
  if (result.fiveHundreds > 0 || lost > 0 || doubled > 0) Deno.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  await server.status;
}
