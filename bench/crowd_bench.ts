/**
 * Match day at crowd scale: `deno task bench crowd`. For 1,000 / 10,000 / 50,000 sockets
 * (CROWD_SIZES to choose), all joined to one LIVE competition: a GOAL written to the store, and
 * the time until each socket got the `game_events_update` carrying it (p50/p99/max, missed),
 * with the server's RSS and CPU; then the bare-broadcast floor (bench/crowd_floor.ts: a minimal
 * server sending the same bytes to the same number of sockets) and the ratio app / floor. Clients
 * offer permessage-deflate like browsers (CROWD_DEFLATE=0: they do not), so both servers send
 * the shared compressed frame.
 *
 * Set-up, all on this machine: the app's server (serve.ts, one isolate per process) in
 * `ceil(sockets / 17,000)` processes (at least 2, one per core) sharing the port with
 * `reusePort` and one KV file; a process may hold at most 20,000 open files here (hard limit),
 * so 50,000 sockets need several. The GOAL is written by the bench's own process, so each server
 * learns of it by its version poll, as from an admin on another machine. Clients are Node
 * processes of raw sockets (bench/crowd_client.mjs, at most 17,000 each), 8 sockets per loopback
 * source address (the per-address limit of /ws holds). Each set-up first sends one unmeasured
 * event (warm-up), then CROWD_EVENTS (3) measured ones; figures are their medians.
 * Writes .bench-out/crowd.json.
 */
import { updateCompetition } from "@/lib/db/competitions.ts";
import { createGameEvent, listGameEvents } from "@/lib/db/events.ts";
import { Outgoing } from "@/lib/live/socket_io.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";
import { freePort } from "@/tests/helpers/server.ts";
import { lineOf, type Proc, spawnLines, spawnServe } from "./processes.ts";

const OUT = new URL("../.bench-out/crowd.json", import.meta.url);
const SIZES = (Deno.env.get("CROWD_SIZES") ?? "1000,10000,50000").split(",").map(Number);
const EVENTS = Number(Deno.env.get("CROWD_EVENTS") ?? 3);
const PER_PROCESS = 17_000;
const BUDGET = { p99Ms: 1000, rssMb: 1536, ratio: 1.5 };
const wallNow = () => performance.timeOrigin + performance.now();
const encoder = new TextEncoder();

async function stop(procs: Proc[]): Promise<void> {
  for (const proc of procs) {
    try {
      proc.child.kill("SIGTERM");
    } catch {
      // already gone
    }
  }
  await Promise.all(procs.map((proc) => proc.child.status));
}

function procStat(pid: number): { rssMb: number; cpuS: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return {
    rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
    cpuS: (Number(stat[11]) + Number(stat[12])) / 100, // utime + stime, in clock ticks
  };
}

function sum(procs: Proc[]): { rssMb: number; cpuS: number } {
  const stats = procs.map((proc) => procStat(proc.child.pid));
  return {
    rssMb: stats.reduce((total, s) => total + s.rssMb, 0),
    cpuS: stats.reduce((total, s) => total + s.cpuS, 0),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

/** Starts the clients (connected and joined); `sockets` spread over the client processes. */
async function startClients(port: number, sockets: number, cid: number): Promise<Proc[]> {
  const count = Math.ceil(sockets / PER_PROCESS);
  const procs: Proc[] = [];
  let left = sockets;
  for (let i = 0; i < count; i++) {
    const n = Math.ceil(left / (count - i));
    left -= n;
    const firstAddress = (1 << 16) + i * 4096; // 127.1.x.y onwards; 4,096 addresses each
    procs.push(
      spawnLines("node", [
        "bench/crowd_client.mjs",
        `${port}`,
        `${n}`,
        `${firstAddress}`,
        `${cid}`,
      ]),
    );
  }
  const ready = await Promise.all(procs.map((proc) => lineOf(proc, "ready ")));
  const joined = ready.reduce((total, line) => total + Number(line.split(" ")[1]), 0);
  if (joined < sockets) console.error(`crowd: only ${joined} of ${sockets} sockets joined`);
  return procs;
}

interface EventFigures {
  p50: number;
  p99: number;
  max: number;
  missed: number;
  serverCpuS: number;
}

/** Tells every client the event to expect and gathers the latencies. */
async function measure(
  clients: Proc[],
  servers: Proc[],
  send: () => Promise<{ id: number; t0: number }>,
): Promise<EventFigures> {
  const before = sum(servers).cpuS;
  const { id, t0 } = await send();
  const answers = await Promise.all(clients.map(async (client) => {
    await client.write(`expect ${id} ${t0}`);
    return JSON.parse((await lineOf(client, "latencies ")).slice(10)) as (number | null)[];
  }));
  const all = answers.flat();
  const got = all.filter((v): v is number => v !== null).sort((a, b) => a - b);
  return {
    p50: percentile(got, 50),
    p99: percentile(got, 99),
    max: got[got.length - 1] ?? NaN,
    missed: all.length - got.length,
    serverCpuS: +(sum(servers).cpuS - before).toFixed(2),
  };
}

function summary(events: EventFigures[], rssMb: number, idleRssMb: number) {
  return {
    p50: +median(events.map((e) => e.p50)).toFixed(1),
    p99: +median(events.map((e) => e.p99)).toFixed(1),
    max: +Math.max(...events.map((e) => e.max)).toFixed(1),
    missed: events.reduce((total, e) => total + e.missed, 0),
    serverCpuSPerEvent: +median(events.map((e) => e.serverCpuS)).toFixed(2),
    serverRssMb: +rssMb.toFixed(0),
    serverIdleRssMb: +idleRssMb.toFixed(0),
    events,
  };
}

async function runApp(
  sockets: number,
  processes: number,
  kvPath: string,
  cid: number,
  kv: Deno.Kv,
) {
  const port = freePort();
  const servers = Array.from(
    { length: processes },
    () => spawnServe(port, kvPath),
  );
  try {
    await Promise.all(servers.map((server) => lineOf(server, "Listening on")));
    const clients = await startClients(port, sockets, cid);
    try {
      const idle = sum(servers).rssMb;
      const events: EventFigures[] = [];
      let peak = idle;
      for (let i = -1; i < EVENTS; i++) {
        events.push(
          await measure(clients, servers, async () => {
            const t0 = wallNow();
            const event = await createGameEvent(kv, cid, { playerId: scorer, eventType: "GOAL" });
            return { id: event.id, t0 };
          }),
        );
        peak = Math.max(peak, sum(servers).rssMb);
        await new Promise((r) => setTimeout(r, 300)); // let the standings hint go out
      }
      events.shift(); // the first event only warms up (JIT, buffers)
      return summary(events, peak, idle);
    } finally {
      await stop(clients);
    }
  } finally {
    await stop(servers);
  }
}

async function runFloor(sockets: number, processes: number, cid: number, kv: Deno.Kv) {
  const port = freePort();
  const floors = Array.from(
    { length: processes },
    () => spawnLines(Deno.execPath(), ["run", "-A", "bench/crowd_floor.ts", String(port)]),
  );
  try {
    await Promise.all(floors.map((floor) => lineOf(floor, "listening")));
    const message = async () =>
      JSON.stringify({
        type: "game_events_update",
        competitionId: cid,
        data: await listGameEvents(kv, cid, { limit: 50 }),
      });
    const first = await message();
    await Promise.all(floors.map((floor) => floor.write(first)));
    const clients = await startClients(port, sockets, cid);
    try {
      const idle = sum(floors).rssMb;
      const events: EventFigures[] = [];
      let peak = idle;
      for (let i = -1; i < EVENTS; i++) {
        events.push(
          await measure(clients, floors, async () => {
            const event = await createGameEvent(kv, cid, { playerId: scorer, eventType: "GOAL" });
            const text = await message();
            const t0 = wallNow();
            await Promise.all(floors.map((floor) => floor.write(text)));
            return { id: event.id, t0 };
          }),
        );
        peak = Math.max(peak, sum(floors).rssMb);
      }
      events.shift();
      const last = await message();
      return {
        ...summary(events, peak, idle),
        bytes: encoder.encode(last).length,
        wireBytes: new Outgoing(last).deflatedFrame.length,
      };
    } finally {
      await stop(clients);
    }
  } finally {
    await stop(floors);
  }
}

const kvDir = await Deno.makeTempDir();
const kvPath = `${kvDir}/crowd.kv`;
const kv = await Deno.openKv(kvPath);
const competition = await makeCompetition(kv);
for (let i = 0; i < 20; i++) await makeEntry(kv, competition);
await updateCompetition(kv, competition.id, { status: "LIVE" });
const scorer = competition.players[0].id;
// A match day's feed: the message carries the newest 50 events, as the leaderboard shows them.
for (let minute = 1; minute <= 49; minute++) {
  const player = competition.players[minute % competition.players.length].id;
  await createGameEvent(kv, competition.id, { playerId: player, eventType: "SAVE", minute });
}

const results = [];
for (const sockets of SIZES) {
  const processes = Math.max(2, Math.ceil(sockets / PER_PROCESS));
  const app = await runApp(sockets, processes, kvPath, competition.id, kv);
  const floor = await runFloor(sockets, processes, competition.id, kv);
  const result = {
    sockets,
    serverProcesses: processes,
    messageBytes: floor.bytes,
    wireBytes: floor.wireBytes,
    app,
    floor,
    ratio: { p50: +(app.p50 / floor.p50).toFixed(2), p99: +(app.p99 / floor.p99).toFixed(2) },
  };
  results.push(result);
  const ok = app.p99 <= BUDGET.p99Ms && app.missed === 0 && app.serverRssMb <= BUDGET.rssMb &&
    result.ratio.p99 <= BUDGET.ratio;
  console.log(
    `crowd: ${sockets} sockets (${processes} server processes, ${floor.bytes} B message, ` +
      `${floor.wireBytes} B compressed frame): ` +
      `app p50 ${app.p50} / p99 ${app.p99} / max ${app.max} ms, missed ${app.missed}, ` +
      `RSS ${app.serverRssMb} MB, CPU ${app.serverCpuSPerEvent} s/event; floor p50 ${floor.p50} / ` +
      `p99 ${floor.p99} ms, CPU ${floor.serverCpuSPerEvent} s/event; ratio p99 ${result.ratio.p99} ` +
      `(${ok ? "within budget" : "OVER budget"})`,
  );
}
kv.close();
await Deno.remove(kvDir, { recursive: true });
const load = Deno.loadavg().map((n) => +n.toFixed(2));
console.log(`crowd: load average ${load.join(", ")}`);
await Deno.mkdir(new URL("./", OUT), { recursive: true });
await Deno.writeTextFile(
  OUT,
  JSON.stringify({ budget: BUDGET, loadAverage: load, results }, null, 2) + "\n",
);
