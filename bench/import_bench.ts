/**
 * Bulk import at season scale: `deno task bench import`. A 5,000-row players file (CSV, 20 clubs
 * imported first) into a KV file: the dry-run preview, the apply that creates every row, the
 * same file again (every row unchanged) and a file that changes every salary (every row an
 * update), each timed through `previewImport` / `applyImport` as the Import page's requests run
 * them; the budget is 10 s per apply. Then the same file through HTTP on both servers (`npm
 * start`'s node:http and main.ts's Deno.serve): IMPORT_HTTP_RUNS applies (default 5) of a new
 * 5,000-row file each (every row created), timed from the request to the last progress line; the
 * median is the figure. Writes .bench-out/import.json.
 */
import { applyImport, type ImportRequest, previewImport } from "@/lib/db/imports.ts";
import {
  ADMIN_HEADERS,
  SERVER_KINDS,
  type ServerKind,
  startAppProcess,
} from "@/tests/helpers/app_processes.ts";
import { clubsCsv, importBody, playersCsv } from "@/tests/helpers/import_files.ts";

const ROWS = Number(Deno.env.get("IMPORT_ROWS") ?? 5000);
const HTTP_RUNS = Number(Deno.env.get("IMPORT_HTTP_RUNS") ?? 5);
const BUDGET_S = 10;
const OUT = new URL("../.bench-out/import.json", import.meta.url);

const dir = await Deno.makeTempDir();
const kv = await Deno.openKv(`${dir}/import.kv`);
await applyImport(kv, {
  kind: "clubs",
  format: "csv",
  fileName: "clubs.csv",
  content: clubsCsv(),
}, "bench");

const players = (bump: number) => playersCsv(ROWS, { bump });
const request = (content: string): ImportRequest => ({
  kind: "players",
  format: "csv",
  fileName: "players.csv",
  content,
});
const seconds = async (task: () => Promise<unknown>) => {
  const t0 = performance.now();
  const result = await task();
  return { s: +((performance.now() - t0) / 1000).toFixed(2), result };
};

const preview = await seconds(() => previewImport(kv, request(players(0))));
const create = await seconds(() => applyImport(kv, request(players(0)), "bench"));
const again = await seconds(() => applyImport(kv, request(players(0)), "bench"));
const update = await seconds(() => applyImport(kv, request(players(100)), "bench"));
kv.close();
await Deno.remove(dir, { recursive: true });

/** Seconds of one apply through HTTP, from the request to the last progress line. */
async function applyOverHttp(url: string, content: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/admin/imports/apply`, {
    method: "POST",
    headers: { ...ADMIN_HEADERS, "content-type": "application/json" },
    body: JSON.stringify(importBody("players", content)),
  });
  const text = await res.text();
  const s = (performance.now() - t0) / 1000;
  const last = JSON.parse(text.trim().split("\n").at(-1) ?? "{}");
  if (res.status !== 200 || last.job?.status !== "APPLIED" || last.job.counts.create !== ROWS) {
    throw new Error(`apply through HTTP: ${res.status} ${text.slice(-300)}`);
  }
  return s;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The apply of a new 5,000-row file, HTTP_RUNS times on `kind`: each run's seconds. */
async function httpRuns(kind: ServerKind): Promise<number[]> {
  const server = await startAppProcess(kind);
  try {
    const clubsRes = await fetch(`${server.url}/api/admin/imports/apply`, {
      method: "POST",
      headers: { ...ADMIN_HEADERS, "content-type": "application/json" },
      body: JSON.stringify(importBody("clubs", clubsCsv())),
    });
    if (clubsRes.status !== 200) throw new Error(`clubs: ${clubsRes.status}`);
    await clubsRes.body?.cancel();
    const runs: number[] = [];
    for (let run = 1; run <= HTTP_RUNS; run++) {
      runs.push(await applyOverHttp(server.url, playersCsv(ROWS, { prefix: `http-${run}` })));
    }
    return runs.map((s) => +s.toFixed(2));
  } finally {
    await server.stop();
  }
}

const http: Record<string, { runsS: number[]; medianS: number }> = {};
for (const kind of SERVER_KINDS) {
  const runsS = await httpRuns(kind);
  http[kind] = { runsS, medianS: +median(runsS).toFixed(2) };
}

const result = {
  rows: ROWS,
  previewS: preview.s,
  applyCreateS: create.s,
  applyUnchangedS: again.s,
  applyUpdateS: update.s,
  http,
  budgetS: BUDGET_S,
  loadAverage: Deno.loadavg().map((n) => +n.toFixed(2)),
};
const httpMedians = Object.values(http).map((h) => h.medianS);
const ok = Math.max(create.s, again.s, update.s, ...httpMedians) <= BUDGET_S;
console.log(
  `import: ${ROWS} player rows: preview ${preview.s} s, apply ${create.s} s (all created), ` +
    `${again.s} s (all unchanged), ${update.s} s (all updated); budget ${BUDGET_S} s ` +
    `(${ok ? "within" : "OVER"})`,
);
for (const [kind, h] of Object.entries(http)) {
  console.log(
    `import through HTTP on ${kind}: apply of ${ROWS} rows (all created), median ${h.medianS} s ` +
      `of ${h.runsS.length} runs (${h.runsS.join(", ")} s)`,
  );
}
await Deno.mkdir(new URL("./", OUT), { recursive: true });
await Deno.writeTextFile(OUT, JSON.stringify(result, null, 2) + "\n");
if (!ok) Deno.exit(1);
