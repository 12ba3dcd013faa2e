/**
 * Server RSS while one address sends `WS_FLOOD_SOCKETS` (default 16) concurrent WebSocket
 * messages of `WS_FLOOD_MB` (default 60) MB each, through raw frames (the client holds 1 MB), in
 * three set-ups of one run (WS_MEMORY_MODES, comma-separated, to choose):
 * - `mainPort`: the server as `npm start` runs it (scripts/start.ts, one isolate per core on a KV
 *   file), /ws on the one port;
 * - `livePort`: the same with LIVE_WS_PORT, /ws on a port of its own;
 * - `deployEntry`: `main.ts`, the entry Deno Deploy runs (one isolate).
 * Each refuses a frame over the largest message from its header (1009) and cuts the link before
 * its payload is read; an address gets 8 sockets, the others 429 before any byte is read.
 * WS_MEMORY_DENO names another deno binary for the servers (e.g. Deploy's 2.5.0).
 * Run: `deno task bench ws_memory`; writes .bench-out/ws_memory.json.
 */
import { appEnv, freePort } from "@/tests/helpers/server.ts";
import { BENCH_ADMIN } from "./processes.ts";

const SOCKETS = Number(Deno.env.get("WS_FLOOD_SOCKETS") ?? 16);
const MB = Number(Deno.env.get("WS_FLOOD_MB") ?? 60);
const OUT = new URL("../.bench-out/ws_memory.json", import.meta.url);
const MODES = ["mainPort", "livePort", "deployEntry"] as const;
type Mode = typeof MODES[number];
const CHOSEN = (Deno.env.get("WS_MEMORY_MODES")?.split(",") ?? [...MODES]) as Mode[];
const DENO = Deno.env.get("WS_MEMORY_DENO") ?? Deno.execPath();
/** The bound on RSS growth a stranger's oversized frames may cause. */
const TARGET_GROWTH_MB = 50;

/** One raw client: handshake, then one masked text frame of `MB` MB sent in 1 MB writes. */
async function flood(port: number): Promise<"error" | number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const buf = new Uint8Array(4096);
  let status = 0;
  try {
    await conn.write(new TextEncoder().encode(
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
        "Sec-WebSocket-Version: 13\r\n\r\n",
    ));
    const n = await conn.read(buf);
    status = Number(
      /^HTTP\/1\.1 (\d{3})/.exec(new TextDecoder().decode(buf.subarray(0, n ?? 0)))?.[1],
    );
    if (status !== 101) return status;
    const size = MB * 1_000_000;
    const header = new Uint8Array(14); // FIN + text, 64-bit length, mask key 0
    header[0] = 0x81;
    header[1] = 0x80 | 127;
    new DataView(header.buffer).setBigUint64(2, BigInt(size));
    await conn.write(header);
    const chunk = new Uint8Array(1 << 20).fill(97);
    for (let sent = 0; sent < size;) {
      sent += await conn.write(chunk.subarray(0, Math.min(chunk.length, size - sent)));
    }
    await Promise.race([conn.read(buf).catch(() => null), new Promise((r) => setTimeout(r, 3000))]);
    return status;
  } catch {
    return status === 101 ? 101 : "error"; // after the upgrade: the server cut the link
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the server
    }
  }
}

interface FloodResult {
  deno: string;
  sockets: number;
  messageMb: number;
  upgraded: number;
  refused429: number;
  rssMb: { start: number; peak: number; end: number };
  growthMb: { peak: number; end: number };
}

/** Starts the app as `mode` says, floods its /ws. */
async function run(mode: Mode): Promise<FloodResult> {
  const livePort = mode === "livePort";
  const port = freePort();
  const wsPort = livePort ? freePort() : port;
  const kvDir = await Deno.makeTempDir();
  const server = new Deno.Command(DENO, {
    args: ["run", "-A", mode === "deployEntry" ? "main.ts" : "scripts/start.ts"],
    cwd: new URL("../", import.meta.url),
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
    env: appEnv(port, `${kvDir}/app.kv`, BENCH_ADMIN.password, {
      DEMO_DATA: "1",
      ...(livePort ? { LIVE_WS_PORT: String(wsPort) } : {}),
    }),
  }).spawn();
  // The RSS that counts is the server's (scripts/start.ts prints its pid), not the launcher's.
  const servePid = mode === "deployEntry"
    ? (drain(server.stdout), { value: server.pid })
    : readServePid(server.stdout);
  const rssMb = () => {
    const status = Deno.readTextFileSync(`/proc/${servePid.value}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  };
  try {
    for (let i = 0; i < 600; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => (r.body?.cancel(), r.ok),
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const start = rssMb();
    let peak = start;
    const sampler = setInterval(() => peak = Math.max(peak, rssMb()), 20);
    const outcomes = await Promise.all(Array.from({ length: SOCKETS }, () => flood(wsPort)));
    await new Promise((r) => setTimeout(r, 2000));
    clearInterval(sampler);
    const end = rssMb();
    return {
      deno: new TextDecoder().decode(
        new Deno.Command(DENO, { args: ["--version"] }).outputSync().stdout,
      ).split(" ")[1],
      sockets: SOCKETS,
      messageMb: MB,
      upgraded: outcomes.filter((o) => o === 101).length,
      refused429: outcomes.filter((o) => o === 429).length,
      rssMb: { start: +start.toFixed(1), peak: +peak.toFixed(1), end: +end.toFixed(1) },
      growthMb: { peak: +(peak - start).toFixed(1), end: +(end - start).toFixed(1) },
    };
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(kvDir, { recursive: true });
  }
}

/** Reads the launcher's output until it names the server's pid (and keeps draining it). */
function readServePid(stdout: ReadableStream<Uint8Array>): { value: number } {
  const pid = { value: 0 };
  (async () => {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of stdout) {
      if (pid.value) continue;
      text += decoder.decode(chunk, { stream: true });
      pid.value = Number(/server pid (\d+)/.exec(text)?.[1] ?? 0);
    }
  })();
  return pid;
}

async function drain(stdout: ReadableStream<Uint8Array>): Promise<void> {
  for await (const _ of stdout) {
    // the server's log is not needed
  }
}

const result: Partial<Record<Mode, FloodResult>> = {};
for (const mode of CHOSEN) result[mode] = await run(mode);
console.log(JSON.stringify(result, null, 2));
for (const [name, r] of Object.entries(result)) {
  console.log(
    `ws_memory: ${name} (deno ${r.deno}): ${r.sockets} × ${r.messageMb} MB from one address: ${r.upgraded} upgraded, ` +
      `${r.refused429} refused (429); RSS ${r.rssMb.start} → peak ${r.rssMb.peak} MB ` +
      `(+${r.growthMb.peak} MB)`,
  );
}
for (const [name, r] of Object.entries(result)) {
  const ok = r.growthMb.peak < TARGET_GROWTH_MB;
  console.log(
    `ws_memory: ${name}: growth ${r.growthMb.peak} MB (target < ${TARGET_GROWTH_MB} MB: ` +
      `${ok ? "ok" : "OVER"})`,
  );
}
await Deno.mkdir(new URL("./", OUT), { recursive: true });
await Deno.writeTextFile(OUT, JSON.stringify(result, null, 2) + "\n");
