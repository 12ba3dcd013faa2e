/**
 * Leaderboard and live-push budgets, on one competition
 * with 100k entries:
 * - first leaderboard page (GET /api/competitions/{id}/leaderboard, 100 rows) through the real
 *   app handler, warm: p50/p95 over 300 requests (budget p95 ≤ 50 ms), also over HTTP;
 * - 1,000 WebSocket clients joined on /ws; one GOAL event created through lib/db in the server
 *   process; the time until every socket got the game_events_update: p50/p99 (budget p99 ≤ 1 s);
 * - the server process's RSS with all of that loaded (budget ≤ 300 MB).
 * The entries are seeded into a temporary KV file by a child process, and the clients run in
 * another child process, so the RSS is the server's own.
 *
 * Run: `deno run -A bench/leaderboard_bench.ts` (also run by `deno task bench`).
 * BENCH_ENTRIES and BENCH_SOCKETS scale it down for a quick look. Listens on 127.0.0.1:8400-8449.
 * Writes .bench-out/leaderboard.json.
 */
import { createHandler } from "$fresh/server.ts";
import manifest from "@/fresh.gen.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import type { AppConfig } from "@/lib/config.ts";
import { createServices, servicesPlugin } from "@/lib/services.ts";
import { seedContest } from "@/tests/unit/live/seed.ts";

const ENTRIES = Number(Deno.env.get("BENCH_ENTRIES") ?? 100_000);
const SOCKETS = Number(Deno.env.get("BENCH_SOCKETS") ?? 1000);
const PAGE_REQUESTS = 300;
const BUDGET = { pageP95Ms: 50, pushP99Ms: 1000, rssMb: 300 };
const PORTS = { first: 8400, last: 8449 };
const SELF = new URL(import.meta.url).pathname;
const OUT = new URL("../.bench-out/leaderboard.json", import.meta.url);

/** Wall-clock milliseconds with sub-ms precision, comparable across processes. */
const now = () => performance.timeOrigin + performance.now();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function runSelf(args: string[], stdout: "piped" | "inherit" = "piped"): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-kv", SELF, ...args],
    stdin: "null",
    stdout,
    stderr: "inherit",
  }).spawn();
}

// ---------------------------------------------------------------------------------------------
// Child: seed

async function seedMode(path: string, entries: number): Promise<void> {
  const kv = await Deno.openKv(path);
  const contest = await seedContest(kv, { entries, status: "LIVE", packRoster: true });
  kv.close();
  console.log(JSON.stringify({
    cid: contest.competition.id,
    scorer: contest.players.find((p) => p.position === "FWD")!.id,
  }));
}

// ---------------------------------------------------------------------------------------------
// Child: WebSocket clients. Prints READY once all joined, then one JSON line of receive times.

async function clientsMode(url: string, cid: number, count: number): Promise<void> {
  const received: number[] = new Array(count).fill(NaN);
  let joined = 0;
  let allJoined: () => void;
  const ready = new Promise<void>((resolve) => allJoined = resolve);
  let done = 0;
  let allDone: () => void;
  const finished = new Promise<void>((resolve) => allDone = resolve);
  const sockets: WebSocket[] = [];
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(url);
      sockets.push(ws);
      let updates = 0;
      ws.onopen = () => {
        ws.send(JSON.stringify({ type: "join", competitionId: cid }));
        resolve();
      };
      ws.onerror = () => reject(new Error(`socket ${i} failed`));
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.type !== "game_events_update") return;
        updates++;
        if (updates === 1 && ++joined === count) allJoined();
        if (updates === 2) {
          received[i] = now();
          if (++done === count) allDone();
        }
      };
    });
  for (let i = 0; i < count; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => open(i + j)));
  }
  await ready;
  console.log("READY");
  const timeout = setTimeout(() => allDone(), 10_000);
  await finished;
  clearTimeout(timeout);
  console.log(JSON.stringify(received));
  for (const ws of sockets) ws.close();
}

// ---------------------------------------------------------------------------------------------
// Main: the server process

async function readLine(reader: ReadableStreamDefaultReader<string>, buffer: { text: string }) {
  while (!buffer.text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("child ended early");
    buffer.text += value;
  }
  const index = buffer.text.indexOf("\n");
  const line = buffer.text.slice(0, index);
  buffer.text = buffer.text.slice(index + 1);
  return line;
}

function listen(handler: Deno.ServeHandler): Deno.HttpServer<Deno.NetAddr> {
  for (let port = PORTS.first; port <= PORTS.last; port++) {
    try {
      return Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
    } catch (err) {
      if (!(err instanceof Deno.errors.AddrInUse)) throw err;
    }
  }
  throw new Error(`no free port in ${PORTS.first}-${PORTS.last}`);
}

function config(path: string): AppConfig {
  return {
    port: 0,
    kvPath: path,
    demoData: false,
    adminUsername: null,
    adminPassword: null,
    stripeSecretKey: null,
    stripePublishableKey: null,
    stripeWebhookSecret: null,
    smtpUrl: null,
    mailFrom: "Bench <bench@localhost>",
    publicUrl: null,
  };
}

async function timePages(
  send: () => Promise<Response>,
  count: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await send();
    const rows = await res.json();
    times.push(performance.now() - started);
    if (res.status !== 200 || rows.length !== Math.min(100, ENTRIES)) {
      throw new Error(`unexpected answer ${res.status} with ${rows.length} rows`);
    }
  }
  return times;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const ratio = (value: number, budget: number) => `${fmt((value / budget) * 100, 0)}% of budget`;

async function main(): Promise<void> {
  const path = await Deno.makeTempFile({ prefix: "leaderboard-bench-", suffix: ".kv" });
  console.log(`Leaderboard bench: ${ENTRIES.toLocaleString("en-US")} entries, ${SOCKETS} sockets`);
  let started = performance.now();
  const seeder = runSelf(["--seed", path, String(ENTRIES)]);
  const seedOut = await seeder.output();
  if (!seedOut.success) throw new Error("seeding failed");
  const { cid, scorer } = JSON.parse(new TextDecoder().decode(seedOut.stdout));
  console.log(`  seeded in ${fmt((performance.now() - started) / 1000)} s`);

  const kv = await Deno.openKv(path);
  const cfg = config(path);
  const services = createServices(cfg, kv);
  const { hub } = services;
  const handler = await createHandler(manifest, {
    dev: false,
    plugins: [servicesPlugin(services)],
  });
  const server = listen((req, info) => handler(req, info));
  const base = `http://127.0.0.1:${server.addr.port}`;
  const pagePath = `/api/competitions/${cid}/leaderboard`;

  const rssBaseline = Deno.memoryUsage().rss / 1e6;
  started = performance.now();
  await (await handler(new Request(base + pagePath))).body?.cancel();
  const coldMs = performance.now() - started;
  const rssStandings = Deno.memoryUsage().rss / 1e6;
  const inProcess = await timePages(() => handler(new Request(base + pagePath)), PAGE_REQUESTS);
  const overHttp = await timePages(() => fetch(base + pagePath), PAGE_REQUESTS);

  const clients = runSelf([
    "--clients",
    `ws://127.0.0.1:${server.addr.port}/ws`,
    String(cid),
    String(SOCKETS),
  ]);
  const lines = clients.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const buffer = { text: "" };
  if ((await readLine(lines, buffer)) !== "READY") throw new Error("clients did not join");
  const socketsOpen = hub.stats().sockets;
  const rssSockets = Deno.memoryUsage().rss / 1e6;
  const sentAt = now();
  await createGameEvent(kv, cid, { playerId: scorer, eventType: "GOAL", minute: 90 });
  const received: number[] = JSON.parse(await readLine(lines, buffer));
  await lines.cancel();
  await clients.status;
  const delays = received.filter(Number.isFinite).map((t) => t - sentAt);
  const afterEventStarted = performance.now();
  await (await handler(new Request(base + pagePath))).body?.cancel();
  const afterEventMs = performance.now() - afterEventStarted;
  const rss = Deno.memoryUsage();

  const figures = {
    entries: ENTRIES,
    sockets: SOCKETS,
    coldFirstPageMs: coldMs,
    firstPage: {
      handler: { p50: percentile(inProcess, 50), p95: percentile(inProcess, 95) },
      http: { p50: percentile(overHttp, 50), p95: percentile(overHttp, 95) },
    },
    firstPageAfterEventMs: afterEventMs,
    push: {
      joined: socketsOpen,
      received: delays.length,
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
      max: percentile(delays, 100),
    },
    rssMb: rss.rss / 1e6,
    rssStagesMb: {
      appLoaded: rssBaseline,
      standingsCached: rssStandings,
      socketsJoined: rssSockets,
    },
    heapUsedMb: rss.heapUsed / 1e6,
  };
  console.log(`  first page, cold (one full read per process): ${fmt(coldMs)} ms`);
  console.log(
    `  first page warm, handler: p50 ${fmt(figures.firstPage.handler.p50, 2)} ms, p95 ${
      fmt(figures.firstPage.handler.p95, 2)
    } ms (${ratio(figures.firstPage.handler.p95, BUDGET.pageP95Ms)})`,
  );
  console.log(
    `  first page warm, HTTP:    p50 ${fmt(figures.firstPage.http.p50, 2)} ms, p95 ${
      fmt(figures.firstPage.http.p95, 2)
    } ms (${ratio(figures.firstPage.http.p95, BUDGET.pageP95Ms)})`,
  );
  console.log(`  first page right after the event (rebuild): ${fmt(afterEventMs)} ms`);
  console.log(
    `  push to ${figures.push.received}/${SOCKETS} sockets: p50 ${fmt(figures.push.p50)} ms, p99 ${
      fmt(figures.push.p99)
    } ms, max ${fmt(figures.push.max)} ms (${ratio(figures.push.p99, BUDGET.pushP99Ms)})`,
  );
  console.log(
    `  server RSS ${fmt(figures.rssMb)} MB, heap ${fmt(figures.heapUsedMb)} MB (${
      ratio(figures.rssMb, BUDGET.rssMb)
    })`,
  );
  console.log(
    `  RSS by stage: app loaded ${fmt(rssBaseline)} MB, standings cached ${
      fmt(rssStandings)
    } MB, sockets joined ${fmt(rssSockets)} MB`,
  );
  const pass = figures.firstPage.handler.p95 <= BUDGET.pageP95Ms &&
    figures.push.received === SOCKETS && figures.push.p99 <= BUDGET.pushP99Ms &&
    figures.rssMb <= BUDGET.rssMb;
  console.log(`  ${pass ? "PASS" : "FAIL"}: all budgets ${pass ? "met" : "NOT met"}`);

  await Deno.mkdir(new URL(".", OUT), { recursive: true });
  await Deno.writeTextFile(OUT, JSON.stringify({ ...figures, budget: BUDGET, pass }, null, 2));
  await hub.close();
  await server.shutdown();
  kv.close();
  for (const suffix of ["", "-wal", "-shm"]) {
    await Deno.remove(path + suffix).catch(() => undefined);
  }
  if (!pass) Deno.exitCode = 1;
}

if (Deno.args[0] === "--seed") {
  await seedMode(Deno.args[1], Number(Deno.args[2]));
} else if (Deno.args[0] === "--clients") {
  await clientsMode(Deno.args[1], Number(Deno.args[2]), Number(Deno.args[3]));
} else {
  await main();
}
