/**
 * Live push and contest-scale standings, part of `deno task bench rush`
 * (also `deno task bench live`). On one competition with 1,000,000 entries:
 * - standings in a freshly started process: the first leaderboard page (100 rows) cold, then
 *   warm pages at random offsets (p50/p95), and the process's RSS;
 * - push: a GOAL written by another process (cross-process, one `deno serve` isolate holding the
 *   sockets, same KV file) or by another isolate of one `deno serve --parallel` process
 *   (cross-isolate, 2 isolates; only sockets on the isolates that did not write count): the time
 *   from the write to each socket's `game_events_update`, p50/p99, with 20 and 1,000 sockets.
 * Budgets: cold first page ≤ 1.5 s, warm p95 ≤ 20 ms, push p99 ≤ 1 s, RSS ≤ 400 MB per isolate.
 *
 * The seeded KV file is kept in .bench-out/ and reused by later runs (seeding a million entries
 * takes minutes). LIVE_BENCH_ENTRIES and LIVE_BENCH_EVENTS scale it down for a quick look.
 * The functions are exported for other benches; run alone: `deno run -A bench/rush_live_bench.ts`.
 */
import process from "node:process";
import { createGameEvent } from "@/lib/db/events.ts";
import { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import { seedContest } from "@/tests/unit/live/seed.ts";

const SELF = new URL(import.meta.url).pathname;
const SERVE = new URL("./live_serve.ts", import.meta.url).pathname;
const OUT_DIR = new URL("../.bench-out/", import.meta.url);
/** Bump when the seed or the roster format changes, so an old seeded file is not reused. */
const SEED_VERSION = 1;
/** The id of the newest event in a `game_events_update` (the first of its data). */
const NEWEST_EVENT = /^\{"type":"game_events_update","competitionId":\d+,"data":\[\{"id":(\d+)/;
export const LIVE_BUDGET = { coldFirstPageMs: 1500, warmP95Ms: 20, pushP99Ms: 1000, rssMb: 400 };

export interface BigContest {
  path: string;
  cid: number;
  scorer: number;
  entries: number;
}

export interface StandingsFigures {
  entries: number;
  coldFirstPageMs: number;
  /** CPU time of the cold first page (user + system): what a loaded machine cannot inflate. */
  coldFirstPageCpuMs: number;
  warm: { p50: number; p95: number };
  rssMb: number;
}

export interface PushFigures {
  mode: "cross-process" | "cross-isolate";
  sockets: number;
  events: number;
  /** Socket deliveries measured (cross-isolate: sockets on an isolate that did not write). */
  samples: number;
  /** Deliveries that never came (within 5 s of the last write). */
  missed: number;
  p50: number;
  p99: number;
  max: number;
  serverRssMb: number;
}

/** Wall-clock milliseconds with sub-ms precision. */
const now = () => performance.timeOrigin + performance.now();
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function runSelf(args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-kv", SELF, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`bench child ${args[0]} failed`);
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return lines[lines.length - 1];
}

/**
 * A KV file with one LIVE competition of `entries` entries (roster packed, as after a bulk
 * import), seeded by a child process once and reused from .bench-out/ afterwards.
 */
export async function bigContest(entries: number): Promise<BigContest> {
  await Deno.mkdir(OUT_DIR, { recursive: true });
  const path = new URL(`live-${entries}-v${SEED_VERSION}.kv`, OUT_DIR).pathname;
  const about = `${path}.json`;
  try {
    return JSON.parse(await Deno.readTextFile(about));
  } catch {
    // Not seeded yet.
  }
  for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(path + suffix).catch(() => {});
  const started = performance.now();
  const { cid, scorer } = JSON.parse(await runSelf(["--seed", path, String(entries)]));
  console.log(
    `  seeded ${entries.toLocaleString("en-US")} entries in ${
      ((performance.now() - started) / 1000).toFixed(0)
    } s (kept in ${path})`,
  );
  const contest = { path, cid, scorer, entries };
  await Deno.writeTextFile(about, JSON.stringify(contest));
  return contest;
}

async function seedMode(path: string, entries: number): Promise<void> {
  const kv = await Deno.openKv(path);
  const contest = await seedContest(kv, { entries, status: "LIVE", packRoster: true });
  kv.close();
  console.log(JSON.stringify({
    cid: contest.competition.id,
    scorer: contest.players.find((p) => p.position === "FWD")!.id,
  }));
}

/** Standings figures measured in a fresh process (so the cold page is really cold). */
export async function measureStandings(contest: BigContest): Promise<StandingsFigures> {
  return JSON.parse(await runSelf(["--standings", contest.path, String(contest.cid)]));
}

async function standingsMode(path: string, cid: number): Promise<void> {
  const kv = await Deno.openKv(path);
  const cache = new LeaderboardCache(kv);
  const page = async (offset: number) => {
    const standings = (await cache.standings(cid))!;
    return JSON.stringify(standings.rows(offset, 100)).length + standings.total;
  };
  let started = performance.now();
  const cpu = process.cpuUsage();
  await page(0);
  const coldFirstPageMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const total = (await cache.standings(cid))!.total;
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const offset = i % 3 === 0 ? 0 : Math.floor(Math.random() * Math.max(1, total - 100));
    started = performance.now();
    await page(offset);
    times.push(performance.now() - started);
  }
  const figures: StandingsFigures = {
    entries: total,
    coldFirstPageMs,
    coldFirstPageCpuMs: (user + system) / 1000,
    warm: { p50: percentile(times, 50), p95: percentile(times, 95) },
    rssMb: Deno.memoryUsage().rss / 1e6,
  };
  kv.close();
  console.log(JSON.stringify(figures));
}

interface Listener {
  socket: WebSocket;
  isolate: string | null;
  joined: boolean;
  /** Newest event id of each update received, with its arrival time (ids only grow). */
  arrivals: { id: number; at: number }[];
}

async function waitFor(what: string, ok: () => boolean | Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(50);
  }
}

/**
 * Push delays with `sockets` sockets on a `deno serve` server: `isolates` null → one isolate and
 * GOALs written by this process (cross-process); a number → `deno serve --parallel` with that
 * many isolates and GOALs written by one of them through POST /goal (cross-isolate).
 */
export async function measurePush(
  contest: BigContest,
  sockets: number,
  events: number,
  isolates: number | null,
): Promise<PushFigures> {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "serve",
      "-A",
      "--unstable-kv",
      ...(isolates === null ? [] : ["--parallel"]),
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      SERVE,
    ],
    env: { LIVE_BENCH_KV: contest.path, DENO_JOBS: String(isolates ?? 1) },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const kv = isolates === null ? await Deno.openKv(contest.path) : null;
  const listeners: Listener[] = [];
  try {
    await waitFor("the server", async () => {
      try {
        const res = await fetch(`${base}/stats`);
        await res.body?.cancel();
        return res.ok;
      } catch {
        return false;
      }
    }, 60_000);
    const open = () =>
      new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
        const listener: Listener = { socket, isolate: null, joined: false, arrivals: [] };
        listeners.push(listener);
        socket.onopen = () => {
          socket.send(JSON.stringify({ type: "join", competitionId: contest.cid }));
          resolve();
        };
        socket.onerror = () => reject(new Error("a socket failed"));
        socket.onmessage = (event) => {
          const at = now();
          const text = event.data as string;
          // The newest event's id leads the data array: read it without parsing ~10 KB of JSON,
          // so the clients' own work barely delays the arrival times.
          const newest = NEWEST_EVENT.exec(text);
          if (newest) {
            listener.joined = true;
            listener.arrivals.push({ id: Number(newest[1]), at });
            return;
          }
          const message = JSON.parse(text);
          if (message.type === "isolate") listener.isolate = message.id;
          if (message.type === "game_events_update") listener.joined = true;
        };
      });
    for (let i = 0; i < sockets; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, sockets - i) }, open));
    }
    await waitFor("every join", () => listeners.every((l) => l.joined), 180_000);

    const writes: { id: number; at: number; isolate: string | null }[] = [];
    const socketIsolates = new Set(listeners.map((l) => l.isolate));
    for (let k = 0, tries = 0; writes.length < events && tries < events * 5; k++, tries++) {
      await delay(1000 + Math.random() * 300);
      const goal = { cid: contest.cid, playerId: contest.scorer, minute: 1 + (k % 130) };
      const at = now();
      if (kv) {
        const event = await createGameEvent(kv, goal.cid, { ...goal, eventType: "GOAL" });
        writes.push({ id: event.id, at, isolate: null });
        continue;
      }
      // A new connection each time, so the kernel may hand the write to any isolate.
      const client = Deno.createHttpClient({});
      const init = { method: "POST", body: JSON.stringify(goal), client } as RequestInit;
      const res = await fetch(`${base}/goal`, init);
      const { id, isolate } = await res.json();
      client.close();
      // A write on the only isolate holding sockets measures nothing across isolates.
      if (socketIsolates.size > 1 || !socketIsolates.has(isolate)) writes.push({ id, at, isolate });
    }
    if (writes.length === 0) throw new Error("no write landed on an isolate without the sockets");
    const lastId = writes[writes.length - 1].id;
    await waitFor(
      "the last event",
      () => listeners.every((l) => l.arrivals.some((a) => a.id >= lastId)),
      5000,
    ).catch(() => undefined);
    const delays: number[] = [];
    let missed = 0;
    for (const write of writes) {
      for (const listener of listeners) {
        if (write.isolate !== null && listener.isolate === write.isolate) continue;
        // Changes close together may come in one update: the first carrying this event or a
        // newer one delivered it.
        const arrival = listener.arrivals.find((a) => a.id >= write.id);
        if (arrival === undefined) missed++;
        else delays.push(arrival.at - write.at);
      }
    }
    const stats = await fetch(`${base}/stats`).then((r) => r.json());
    return {
      mode: isolates === null ? "cross-process" : "cross-isolate",
      sockets,
      events,
      samples: delays.length,
      missed,
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: percentile(delays, 100),
      serverRssMb: stats.rssMb,
    };
  } finally {
    for (const { socket } of listeners) socket.close();
    kv?.close();
    server.kill("SIGTERM");
    await server.status;
  }
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const verdict = (value: number, budget: number) => value <= budget ? "ok" : "OVER BUDGET";

/** Runs every figure and prints them; true when every budget is met. */
export async function runLiveBench(): Promise<boolean> {
  const entries = Number(Deno.env.get("LIVE_BENCH_ENTRIES") ?? 1_000_000);
  const events = Number(Deno.env.get("LIVE_BENCH_EVENTS") ?? 8);
  console.log(`Live bench: ${entries.toLocaleString("en-US")} entries`);
  const contest = await bigContest(entries);
  const standings = await measureStandings(contest);
  console.log(
    `  standings, fresh process: first page cold ${fmt(standings.coldFirstPageMs)} ms (${
      verdict(standings.coldFirstPageMs, LIVE_BUDGET.coldFirstPageMs)
    }; CPU ${fmt(standings.coldFirstPageCpuMs)} ms); warm pages p50 ${
      fmt(standings.warm.p50, 2)
    } ms, p95 ${fmt(standings.warm.p95, 2)} ms (${
      verdict(standings.warm.p95, LIVE_BUDGET.warmP95Ms)
    }); RSS ${fmt(standings.rssMb)} MB (${verdict(standings.rssMb, LIVE_BUDGET.rssMb)})`,
  );
  let pass = standings.coldFirstPageMs <= LIVE_BUDGET.coldFirstPageMs &&
    standings.warm.p95 <= LIVE_BUDGET.warmP95Ms && standings.rssMb <= LIVE_BUDGET.rssMb;
  const runs: PushFigures[] = [];
  for (const isolates of [null, 2]) {
    for (const sockets of [20, 1000]) {
      const push = await measurePush(contest, sockets, events, isolates);
      runs.push(push);
      console.log(
        `  push ${push.mode}${isolates ? ` (${isolates} isolates)` : ""}, ${sockets} sockets: ` +
          `p50 ${fmt(push.p50)} ms, p99 ${fmt(push.p99)} ms, max ${
            fmt(push.max)
          } ms over ${push.samples} deliveries, ${push.missed} missed (${
            verdict(push.p99, LIVE_BUDGET.pushP99Ms)
          }); ` +
          `server RSS ${fmt(push.serverRssMb)} MB`,
      );
      pass &&= push.missed === 0 && push.p99 <= LIVE_BUDGET.pushP99Ms &&
        (isolates !== null || push.serverRssMb <= LIVE_BUDGET.rssMb);
    }
  }
  await Deno.writeTextFile(
    new URL("live.json", OUT_DIR),
    JSON.stringify({ standings, push: runs, budget: LIVE_BUDGET, pass }, null, 2),
  );
  console.log(`  ${pass ? "PASS" : "FAIL"}: live budgets ${pass ? "met" : "NOT met"}`);
  return pass;
}

if (import.meta.main) {
  if (Deno.args[0] === "--seed") await seedMode(Deno.args[1], Number(Deno.args[2]));
  else if (Deno.args[0] === "--standings") await standingsMode(Deno.args[1], Number(Deno.args[2]));
  else if (!(await runLiveBench())) Deno.exitCode = 1;
}
