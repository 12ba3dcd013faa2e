/**
 * Link-preview images under an attack of spellings: 8 connections fetch, for
 * `OG_BURST_S` (10) seconds, `/og/team/{id}.png` each time spelled anew (a different set of its
 * characters percent-encoded, so a cache keyed by the raw path would render every one), while one
 * client times `GET /leaderboard/{id}`. Prints the server's CPU time per preview request (from
 * /proc, all isolates) and the leaderboard's latency before and during the burst.
 * Run: `deno task bench og_burst` (the server as `npm start` runs it, demo data on a KV file).
 */
import { startServer } from "@/tests/helpers/server.ts";

const SECONDS = Number(Deno.env.get("OG_BURST_S") ?? 10);
const CONNECTIONS = 8;
const TICKS_PER_SECOND = 100; // USER_HZ of /proc/<pid>/stat on Linux

/** CPU time (user + system, ms) of the process `pid` and all its threads so far. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 1000 / TICKS_PER_SECOND;
}

/** `path` with the letters and digits of `id` chosen by the bits of `n` percent-encoded. */
function spelling(id: string, n: number): string {
  let bit = 0;
  const spelled = [...id].map((ch) => {
    if (!/[A-Za-z0-9]/.test(ch)) return ch;
    return (n >> bit++) & 1 ? `%${ch.charCodeAt(0).toString(16).toUpperCase()}` : ch;
  }).join("");
  return `/og/team/${spelled}.png`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? NaN;
}

async function timed(url: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - start;
}

const kvDir = await Deno.makeTempDir();
const server = await startServer({ env: { DENO_KV_PATH: `${kvDir}/app.kv` } });
try {
  const list = await (await fetch(`${server.url}/api/competitions`)).json() as { id: number }[];
  let competitionId = 0;
  let teamId = "";
  for (const { id } of list) {
    const board = await (await fetch(`${server.url}/api/competitions/${id}/leaderboard`))
      .json() as { teamId: string }[];
    if (board.length > 0) [competitionId, teamId] = [id, board[0].teamId];
    if (teamId) break;
  }
  if (!teamId) throw new Error("the demo data has no entry");
  const leaderboard = `${server.url}/leaderboard/${competitionId}`;
  await timed(`${server.url}/og/team/${teamId}.png`); // the renderer loaded, as in a warm server
  for (let i = 0; i < 5; i++) await timed(leaderboard);
  const quiet: number[] = [];
  for (let i = 0; i < 30; i++) quiet.push(await timed(leaderboard));

  const pid = server.servePid();
  if (!pid) throw new Error("no server pid");
  const statuses = new Map<number, number>();
  const during: number[] = [];
  let n = 1;
  const cpuBefore = await cpuMs(pid);
  const end = Date.now() + SECONDS * 1000;
  await Promise.all([
    ...Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const res = await fetch(`${server.url}${spelling(teamId, n++)}`, { redirect: "manual" });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
    (async () => {
      while (Date.now() < end) during.push(await timed(leaderboard));
    })(),
  ]);
  const cpu = await cpuMs(pid) - cpuBefore;
  const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
  const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;
  console.log(
    `og_burst: ${requests} preview requests in ${SECONDS} s over ${CONNECTIONS} connections ` +
      `(statuses ${JSON.stringify(Object.fromEntries(statuses))})`,
  );
  console.log(
    `og_burst: server CPU ${ms(cpu)} in all, ${ms(cpu / requests)} per preview request ` +
      `(includes the ${during.length} leaderboard fetches)`,
  );
  console.log(
    `og_burst: GET /leaderboard/${competitionId} median ${ms(median(quiet))} ` +
      `(p95 ${ms(p95(quiet))}) quiet, median ${ms(median(during))} (p95 ${ms(p95(during))}) ` +
      `during the burst`,
  );
} finally {
  await server.stop();
  await Deno.remove(kvDir, { recursive: true });
}
