/**
 * The app over a far-away store: `deno task bench remote`. Each KV round trip of the server
 * waits 0 or 90 ms (a strong read from Europe to Deploy's primary; bench/remote_server.ts over
 * tests/helpers/latency_kv.ts), with 1 and 4 server processes on one KV file. Figures:
 * - cold start: the first answer of `/healthz` after the process started (the server's clock),
 *   the first byte of `/` right after it (the server's clock, and since spawn on the bench's),
 *   and the app's set-up (module loaded → listening), on an empty and on a seeded store;
 * - a cached public page (`/`, `/leaderboard/:id`, `/api/competitions/:id`): latency and KV
 *   round trips per request (total / on the critical path);
 * - the paid entry (create-payment-intent with picks → test card confirm → POST /api/entries):
 *   latency and round trips of each request, one buyer at a time, and of the whole path (the
 *   three requests together, sequential round trips summed); then 12 buyers at once spread over
 *   the processes, for the latency under contention: all in one competition, and (4 processes)
 *   each process selling its own competition, where no commit should be refused.
 *
 * `BENCH_ENTRIES` (default 6) buyers one at a time per configuration. Writes
 * .bench-out/remote.json.
 */
import { buildIfStale } from "@/scripts/build_if_stale.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";
import { makeCompetition, SUCCESS_CARD, validPicks } from "@/tests/helpers/fixtures.ts";
import { appEnv, freePort } from "@/tests/helpers/server.ts";

const OUT = new URL("../.bench-out/remote.json", import.meta.url);
const ROOT = new URL("../", import.meta.url);
const ENTRIES = Number(Deno.env.get("BENCH_ENTRIES") ?? 6);
const LATENCIES = [0, 90];
const PROCESSES = [1, 4];

interface Server {
  url: string;
  child: Deno.ChildProcess;
  spawnedAt: number;
  firstByteMs: number;
  /** The first answer of `/healthz`, in ms since the server process started (its own clock). */
  healthzMs: number;
  /** The first answer of `/` right after, in ms since the server process started. */
  sinceStartMs: number;
  setupMs: number;
}

interface Measured {
  ms: number;
  total: number;
  sequential: number;
  /** Commits refused by a failed check (retried), counted on the answering process. */
  conflicts: number;
  /** Sequential round trips to the primary (eventual reads left out). */
  strong: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)];
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

async function readSetupMs(child: Deno.ChildProcess): Promise<number> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server ended before listening:\n${text}`);
    text += value;
    const line = text.split("\n").find((l) => l.includes('"msg":"listening"'));
    if (line) {
      // keep draining so the server never blocks on a full pipe
      (async () => {
        while (!(await reader.read()).done) { /* drain */ }
      })().catch(() => {});
      return JSON.parse(line).setupMs;
    }
  }
}

/** Spawns one server process and waits for the first byte of `/`. */
async function spawnServer(kvPath: string, latencyMs: number): Promise<Server> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnedAt = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("bench/remote_server.ts", ROOT).pathname],
    cwd: ROOT,
    env: appEnv(port, kvPath, "bench-admin-password", {
      BENCH_KV_LATENCY_MS: String(latencyMs),
      SERVE_ISOLATES: "1",
      NO_COLOR: "1",
    }),
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const setup = readSetupMs(child);
  let healthzMs = 0;
  while (true) {
    try {
      const res = await fetch(`${url}/healthz`);
      await res.body?.cancel();
      healthzMs = Number(res.headers.get("x-since-start-ms"));
      if (res.ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  const res = await fetch(`${url}/`);
  await res.body?.cancel();
  const sinceStartMs = Number(res.headers.get("x-since-start-ms"));
  const firstByteMs = performance.now() - spawnedAt;
  return { url, child, spawnedAt, firstByteMs, healthzMs, sinceStartMs, setupMs: await setup };
}

async function stopServer(server: Server): Promise<void> {
  try {
    server.child.kill("SIGTERM");
  } catch {
    // already gone
  }
  await server.child.status;
}

async function waitReady(server: Server): Promise<void> {
  while (true) {
    const res = await fetch(`${server.url}/readyz`);
    await res.body?.cancel();
    if (res.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function timed(url: string, init?: RequestInit): Promise<Measured & { res: Response }> {
  const started = performance.now();
  const res = await fetch(url, init);
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  if (!res.ok) throw new Error(`${url}: ${res.status} ${new TextDecoder().decode(body)}`);
  const [total, sequential, conflicts, strong] = (res.headers.get("x-kv-round-trips") ?? "0/0/0/0")
    .split("/").map(Number);
  const copy = new Response(body, { status: res.status, headers: res.headers });
  return { ms, total, sequential, conflicts, strong, res: copy };
}

function post(json: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  };
}

/** One buyer's paid entry through `server`: the three requests, each measured. */
async function paidEntry(server: Server, cid: number, picks: number[], n: number) {
  const buyer = { email: `buyer${n}@example.com`, teamName: `Remote ${n}`, playerIds: picks };
  const intent = await timed(
    `${server.url}/api/create-payment-intent`,
    post({ competitionId: cid, ...buyer }),
  );
  const { paymentIntentId } = await intent.res.json();
  const confirm = await timed(
    `${server.url}/api/test-payments/confirm`,
    post({ paymentIntentId, cardNumber: SUCCESS_CARD }),
  );
  const entry = await timed(
    `${server.url}/api/entries`,
    post({ competitionId: cid, ...buyer, stripePaymentId: paymentIntentId }),
  );
  return { intent, confirm, entry };
}

function summary(rows: Measured[]) {
  return {
    medianMs: Math.round(median(rows.map((r) => r.ms))),
    roundTrips: median(rows.map((r) => r.total)),
    sequential: median(rows.map((r) => r.sequential)),
    strong: median(rows.map((r) => r.strong)),
  };
}

interface BenchCompetition {
  cid: number;
  picks: number[];
}

/**
 * A KV file with the demo data and `count` bench competitions; returns their ids and valid picks.
 */
async function seededStore(path: string, count: number): Promise<BenchCompetition[]> {
  const kv = await Deno.openKv(path);
  try {
    await seedDemoDataIfEmpty(kv);
    const made: BenchCompetition[] = [];
    for (let i = 0; i < count; i++) {
      const competition = await makeCompetition(kv, { name: `Remote Bench Cup ${i + 1}` });
      made.push({ cid: competition.id, picks: validPicks(competition) });
    }
    return made;
  } finally {
    kv.close();
  }
}

async function runConfiguration(dir: string, latencyMs: number, processes: number) {
  const label = `${latencyMs} ms, ${processes} process${processes === 1 ? "" : "es"}`;
  console.log(`\n--- ${label} ---`);
  const emptyPath = `${dir}/empty-${latencyMs}-${processes}.kv`;
  const empty = await Promise.all(
    Array.from({ length: processes }, () => spawnServer(emptyPath, latencyMs)),
  );
  await Promise.all(empty.map(stopServer));

  const seededPath = `${dir}/seeded-${latencyMs}-${processes}.kv`;
  const competitions = await seededStore(seededPath, processes);
  const { cid, picks } = competitions[0];
  const servers = await Promise.all(
    Array.from({ length: processes }, () => spawnServer(seededPath, latencyMs)),
  );
  try {
    await Promise.all(servers.map(waitReady));
    type Field = "firstByteMs" | "healthzMs" | "sinceStartMs" | "setupMs";
    const slowest = (list: Server[], field: Field) =>
      Math.round(Math.max(...list.map((s) => s[field])));
    const cold = {
      emptyStartToHealthzMs: slowest(empty, "healthzMs"),
      seededStartToHealthzMs: slowest(servers, "healthzMs"),
      emptySpawnToFirstByteMs: slowest(empty, "firstByteMs"),
      emptyStartToFirstByteMs: slowest(empty, "sinceStartMs"),
      emptySetupMs: slowest(empty, "setupMs"),
      seededSpawnToFirstByteMs: slowest(servers, "firstByteMs"),
      seededStartToFirstByteMs: slowest(servers, "sinceStartMs"),
      seededSetupMs: slowest(servers, "setupMs"),
    };
    console.log(`cold start (slowest process): ${JSON.stringify(cold)}`);

    const pages: Record<string, ReturnType<typeof summary>> = {};
    for (const path of ["/", `/leaderboard/${cid}`, `/api/competitions/${cid}`]) {
      await timed(`${servers[0].url}${path}`); // renders once
      const rows: Measured[] = [];
      for (let i = 0; i < 15; i++) rows.push(await timed(`${servers[0].url}${path}`));
      pages[path] = summary(rows);
      console.log(`cached ${path}: ${JSON.stringify(pages[path])}`);
    }

    const steps = { intent: [] as Measured[], confirm: [] as Measured[], entry: [] as Measured[] };
    for (let n = 0; n < ENTRIES; n++) {
      const one = await paidEntry(servers[n % servers.length], cid, picks, n);
      steps.intent.push(one.intent);
      steps.confirm.push(one.confirm);
      steps.entry.push(one.entry);
    }
    const whole = steps.intent.map((intent, i) => ({
      ms: intent.ms + steps.confirm[i].ms + steps.entry[i].ms,
      total: intent.total + steps.confirm[i].total + steps.entry[i].total,
      sequential: intent.sequential + steps.confirm[i].sequential + steps.entry[i].sequential,
      strong: intent.strong + steps.confirm[i].strong + steps.entry[i].strong,
      conflicts: 0,
    }));
    const paid = {
      intent: summary(steps.intent),
      confirm: summary(steps.confirm),
      entry: summary(steps.entry),
      wholePath: summary(whole),
    };
    console.log(`paid entry, one buyer at a time: ${JSON.stringify(paid)}`);

    const totals = () =>
      Promise.all(servers.map((s) => fetch(`${s.url}/_bench/round-trips`).then((r) => r.json())))
        .then((all) => all.reduce((sum, t) => sum + t.conflicts, 0));
    /** 12 buyers at once; buyer i through process i mod n, in the competition `pick(i)` gives. */
    const rush = async (pick: (i: number) => BenchCompetition, first: number) => {
      const conflictsBefore = await totals();
      const started = performance.now();
      const burst = await Promise.all(
        Array.from({ length: 4 * 3 }, (_, i) => {
          const server = servers[i % servers.length];
          const { cid, picks } = pick(i);
          return paidEntry(server, cid, picks, first + i).then((r) => r.entry);
        }),
      );
      return {
        buyers: burst.length,
        entryMedianMs: Math.round(median(burst.map((e) => e.ms))),
        entryP95Ms: Math.round(p95(burst.map((e) => e.ms))),
        conflicts: (await totals()) - conflictsBefore,
        wallMs: Math.round(performance.now() - started),
      };
    };
    const concurrent = await rush(() => competitions[0], 1000);
    console.log(`paid entry, 12 buyers at once, one competition: ${JSON.stringify(concurrent)}`);
    const perCompetition = processes > 1
      ? await rush((i) => competitions[i % servers.length], 2000)
      : null;
    if (perCompetition) {
      console.log(
        `paid entry, 12 buyers at once, ${processes} processes × ${processes} competitions: ${
          JSON.stringify(perCompetition)
        }`,
      );
    }
    return { latencyMs, processes, cold, pages, paid, concurrent, perCompetition };
  } finally {
    await Promise.all(servers.map(stopServer));
  }
}

if (import.meta.main) {
  await buildIfStale();
  const dir = await Deno.makeTempDir({ prefix: "remote-bench-" });
  const results = [];
  try {
    for (const latencyMs of LATENCIES) {
      for (const processes of PROCESSES) {
        results.push(await runConfiguration(dir, latencyMs, processes));
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  await Deno.mkdir(new URL("./", OUT), { recursive: true });
  await Deno.writeTextFile(OUT, JSON.stringify({ results }, null, 2));
  console.log(`\nWrote ${OUT.pathname}`);
}
