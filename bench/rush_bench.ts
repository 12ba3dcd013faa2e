/**
 * The deadline rush: paid entries per second over HTTP into one competition, the way
 * a buyer makes them (create-payment-intent with the picks → test card confirm → POST
 * /api/entries), at 1, 16, 64 and 256 concurrent clients, against the real server as `npm start`
 * runs it (tests/helpers/server.ts) on a KV file. Beside it: the bare KV commit rate of this
 * machine (get + check + 3 sets, serial) and the ratio, and the count of answers that would turn
 * a paying customer away ("try again", any other 409, 5xx: must be 0).
 *
 * Run: `deno task bench rush`. `BENCH_SECONDS` (default 8) is the time per concurrency level,
 * `BENCH_CLIENTS` (e.g. "1,16") the levels. Writes .bench-out/rush.json.
 *
 * Other figures of the rush (live push across isolates/processes, 1M-entry standings) are added
 * as sections: see `SECTIONS` at the end.
 */
import { startServer } from "@/tests/helpers/server.ts";
import { makeCompetition, SUCCESS_CARD, validPicks } from "@/tests/helpers/fixtures.ts";

const OUT = new URL("../.bench-out/rush.json", import.meta.url);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 8);
const CLIENTS = (Deno.env.get("BENCH_CLIENTS") ?? "1,16,64,256").split(",").map(Number);
const TARGET_AT_64 = 300;

export interface LoadResult {
  clients: number;
  seconds: number;
  entries: number;
  perSecond: number;
  /** Answers that turned a paying customer away: "try again" 409s, other 409s, 5xx, errors. */
  tryAgain: number;
  otherConflicts: number;
  serverErrors: number;
  networkErrors: number;
  latencyMs: { p50: number; p99: number };
}

/** Serial commits of `get + check + 3 sets` on a fresh KV file for `ms`: commits per second. */
export async function bareCommitRate(path: string, ms = 2000): Promise<number> {
  const kv = await Deno.openKv(path);
  try {
    let n = 0;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const row = await kv.get(["bench_counter"]);
      const res = await kv.atomic().check(row)
        .set(["bench_counter"], n)
        .set(["bench_a", n], { n, at: Date.now() })
        .set(["bench_b", n], n)
        .commit();
      if (res.ok) n++;
    }
    return n / (ms / 1000);
  } finally {
    kv.close();
  }
}

async function post(url: string, body: unknown): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

type Outcome = "entry" | "try_again" | "conflict" | "server_error" | "network_error";

/** One buyer's paid entry, start to end. */
async function paidEntry(base: string, cid: number, picks: number[], n: string): Promise<Outcome> {
  const team = { email: `buyer${n}@example.com`, teamName: `Rush ${n}`, playerIds: picks };
  const classify = async (res: Response): Promise<Outcome | null> => {
    const text = await res.text();
    if (res.status >= 500) {
      console.error(`rush: ${res.status} ${text.slice(0, 200)}`);
      return "server_error";
    }
    if (res.status === 409) return /try again/i.test(text) ? "try_again" : "conflict";
    if (res.status >= 400) throw new Error(`unexpected ${res.status}: ${text.slice(0, 200)}`);
    return null;
  };
  try {
    const intentRes = await post(`${base}/api/create-payment-intent`, {
      competitionId: cid,
      ...team,
    });
    if (!intentRes.ok) return (await classify(intentRes))!;
    const { paymentIntentId } = await intentRes.json();
    const confirm = await post(`${base}/api/test-payments/confirm`, {
      paymentIntentId,
      cardNumber: SUCCESS_CARD,
    });
    const refused = await classify(confirm);
    if (refused) return refused;
    const entry = await post(`${base}/api/entries`, {
      competitionId: cid,
      ...team,
      stripePaymentId: paymentIntentId,
    });
    return (await classify(entry)) ?? "entry";
  } catch (err) {
    console.error(`rush: ${err instanceof Error ? err.message : err}`);
    return "network_error";
  }
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** `clients` buyers paying in a loop for `seconds` into competition `cid`. */
export async function paidEntryLoad(
  base: string,
  cid: number,
  picks: number[],
  clients: number,
  seconds: number,
): Promise<LoadResult> {
  const counts: Record<Outcome, number> = {
    entry: 0,
    try_again: 0,
    conflict: 0,
    server_error: 0,
    network_error: 0,
  };
  const latencies: number[] = [];
  // Each load its own buyers: a buyer of an earlier load (or the warm-up) buying again would be
  // refused as a second entry of one person, not as a customer the rush turned away.
  const run = Math.random().toString(36).slice(2, 8);
  let n = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const outcome = await paidEntry(base, cid, picks, `${run}${++n}`);
      latencies.push(performance.now() - t0);
      counts[outcome]++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    clients,
    seconds: Math.round(elapsed * 10) / 10,
    entries: counts.entry,
    perSecond: Math.round(counts.entry / elapsed),
    tryAgain: counts.try_again,
    otherConflicts: counts.conflict,
    serverErrors: counts.server_error,
    networkErrors: counts.network_error,
    latencyMs: {
      p50: Math.round(quantile(latencies, 0.5)),
      p99: Math.round(quantile(latencies, 0.99)),
    },
  };
}

/** A KV file with one open, unlimited competition; returns its id and a valid team. */
async function seedRushKv(path: string): Promise<{ cid: number; picks: number[] }> {
  const kv = await Deno.openKv(path);
  try {
    const competition = await makeCompetition(kv, { name: "Deadline Rush Cup" });
    return { cid: competition.id, picks: validPicks(competition) };
  } finally {
    kv.close();
  }
}

export interface RushThroughput {
  bareCommitsPerSecond: number;
  levels: LoadResult[];
}

/** Paid entries/s at each level in CLIENTS, against one server on one KV file. */
export async function runThroughput(): Promise<RushThroughput> {
  const dir = await Deno.makeTempDir({ prefix: "rush-bench-" });
  try {
    const bareCommitsPerSecond = Math.round(await bareCommitRate(`${dir}/bare.kv`));
    const { cid, picks } = await seedRushKv(`${dir}/rush.kv`);
    const server = await startServer({
      // Every buyer of the bench comes from 127.0.0.1: the per-address intent limit is off.
      env: { DENO_KV_PATH: `${dir}/rush.kv`, DEMO_DATA: "0", PAYMENT_INTENTS_PER_10_MIN: "0" },
    });
    const levels: LoadResult[] = [];
    try {
      await paidEntryLoad(server.url, cid, picks, 4, 1); // warm-up
      for (const clients of CLIENTS) {
        const result = await paidEntryLoad(server.url, cid, picks, clients, SECONDS);
        levels.push(result);
        console.log(
          `rush: ${String(clients).padStart(3)} clients  ${
            String(result.perSecond).padStart(4)
          } paid entries/s  (${result.entries} in ${result.seconds} s; p50 ${result.latencyMs.p50} ms, ` +
            `p99 ${result.latencyMs.p99} ms; try again ${result.tryAgain}, other 409 ${result.otherConflicts}, ` +
            `5xx ${result.serverErrors}, network errors ${result.networkErrors})`,
        );
      }
    } finally {
      await server.stop();
    }
    return { bareCommitsPerSecond, levels };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The sections of this bench, run in order; each prints its own lines and returns its figures
 * for the JSON file. The live push and 1M-entry standings figures belong here too.
 */
const SECTIONS: Record<string, () => Promise<unknown>> = {
  throughput: runThroughput,
};

if (import.meta.main) {
  const figures: Record<string, unknown> = {};
  let failed = false;
  for (const [name, run] of Object.entries(SECTIONS)) {
    figures[name] = await run();
  }
  const t = figures.throughput as RushThroughput;
  console.log(`rush: bare KV commits (get + check + 3 sets, serial): ${t.bareCommitsPerSecond}/s`);
  for (const level of t.levels) {
    const ratio = (level.perSecond / t.bareCommitsPerSecond).toFixed(2);
    console.log(`rush: ${level.clients} clients: ratio paid entries / bare commits = ${ratio}`);
  }
  const turnedAway = t.levels.reduce(
    (sum, l) => sum + l.tryAgain + l.otherConflicts + l.serverErrors + l.networkErrors,
    0,
  );
  console.log(`rush: paying customers turned away (try again, 409, 5xx, errors): ${turnedAway}`);
  const at64 = t.levels.find((l) => l.clients === 64);
  if (at64) {
    const ok = at64.perSecond >= TARGET_AT_64;
    console.log(
      `rush: at 64 clients ${at64.perSecond}/s (target ≥ ${TARGET_AT_64}: ${ok ? "ok" : "BELOW"})`,
    );
  }
  if (turnedAway > 0) failed = true;
  await Deno.mkdir(new URL("./", OUT), { recursive: true });
  await Deno.writeTextFile(OUT, JSON.stringify(figures, null, 2) + "\n");
  if (failed) Deno.exit(1);
}
