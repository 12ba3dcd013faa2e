/**
 * Foundation figures (bench/README.md, "Figures"), measured in one run against the real app:
 * - JS shipped (gzip) by a page with no island and by a page with one island: fetches each
 *   candidate route, reads its islands from `__FRSH_STATE`, follows every script it loads
 *   (`<script src>`, modulepreloads, island and plugin chunks, then the static `import`s inside
 *   each chunk, recursively), gzips each one and sums. Lazy `import()`s are listed, not counted. Also the framework floor: the same islands
 *   and twind plugin in a two-page app with a bare document (no `_app` shell islands).
 * - Requests/s and latency p50/p99 of `/` and `/api/competitions` under `wrk -t2 -c50 -d10s`
 *   on loopback, three runs each, medians.
 * - `npm install && npm start` times come from bench/fresh_clone.sh (it needs the npm registry);
 *   this bench shows its last result from .bench-out/fresh_clone.json when present.
 *
 * Run: `node_modules/.bin/deno run -A bench/foundation_bench.ts` (also run by `deno task bench`).
 * Writes .bench-out/foundation.json. The server binds 127.0.0.1 on a free port
 * (tests/helpers/server.ts).
 */
import { createElement as h } from "react";
import { createHandler } from "$fresh/server.ts";
import type { Manifest } from "$fresh/server.ts";
import config from "@/fresh.config.ts";
import * as emailTestIsland from "@/islands/EmailTestForm.tsx";
import { startServer } from "@/tests/helpers/server.ts";

const ROOT = new URL("../", import.meta.url);
const OUT_DIR = new URL(".bench-out/", ROOT);
const WRK = { threads: 2, connections: 50, seconds: 10, warmupSeconds: 3, runs: 3 };
const WRK_TIMEOUT_MS = (WRK.seconds + 20) * 1000;

// ---------------------------------------------------------------------------------------------
// The app in a child process (own process group, stopped with kill -- -PGID)

interface App {
  url: string;
  /** CPU time (user + system, all threads) the server process has used so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

/** Linux clock ticks per second (USER_HZ), for /proc/<pid>/stat. */
async function clockTicks(): Promise<number> {
  try {
    const { stdout } = await new Deno.Command("getconf", { args: ["CLK_TCK"], stdout: "piped" })
      .output();
    return Number(new TextDecoder().decode(stdout)) || 100;
  } catch {
    return 100;
  }
}

async function processCpuMs(pid: number, ticksPerSecond: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond; // utime + stime
}

/**
 * The app as `npm start` serves it (tests/helpers/server.ts: scripts/start.ts, `deno serve`) with
 * an in-memory KV (one isolate) and demo data; its CPU time is that of the `deno serve` process.
 */
async function startApp(): Promise<App> {
  const server = await startServer();
  const pid = server.servePid();
  if (!pid) {
    await server.stop();
    throw new Error(`scripts/start.ts did not print the deno serve pid:\n${server.output()}`);
  }
  const ticks = await clockTicks();
  return { url: server.url, cpuMs: () => processCpuMs(pid, ticks), stop: server.stop };
}

// ---------------------------------------------------------------------------------------------
// JS shipped by a page

type Fetcher = (url: string) => Promise<Response>;

interface ScriptSize {
  url: string;
  bytes: number;
  gzip: number;
}

/** What one page makes the browser load. */
export interface PageJs {
  path: string;
  status: number;
  /** Island names in page order, one per occurrence (from `__FRSH_STATE`). */
  islands: string[];
  scripts: ScriptSize[];
  /** Chunks only imported with `import()` later (not loaded with the page, not counted). */
  lazy: string[];
  bytes: number;
  gzip: number;
}

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

function attr(attrs: string, name: string): string | null {
  const m = attrs.match(new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`));
  return m ? (m[1] ?? m[2] ?? m[3]).replaceAll("&amp;", "&") : null;
}

interface PageScripts {
  urls: string[];
  inline: string[];
  /** Islands are [name, props, has children]; their code comes with the page entry script. */
  state: { islands?: [string, unknown, boolean][]; plugins?: [string, unknown][] } | null;
}

/** Script URLs, inline scripts and the island state of an HTML page. */
function pageScripts(html: string): PageScripts {
  const out: PageScripts = { urls: [], inline: [], state: null };
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const type = attr(attrs, "type");
    if (attr(attrs, "id") === "__FRSH_STATE") out.state = JSON.parse(body);
    const src = attr(attrs, "src");
    if (src) out.urls.push(src);
    else if (!type || type === "module" || type === "text/javascript") out.inline.push(body);
  }
  for (const [, attrs] of html.matchAll(/<link\b([^>]*)>/g)) {
    if (attr(attrs, "rel") === "modulepreload") out.urls.push(attr(attrs, "href")!);
  }
  for (const [url] of out.state?.plugins ?? []) out.urls.push(url);
  return out;
}

/**
 * Relative specifiers a module imports when it loads (static imports and re-exports), and the
 * literal dynamic `import("./x.js")` ones it may load later.
 */
export function moduleImports(source: string): { static: string[]; lazy: string[] } {
  const relative = (re: RegExp) =>
    [...new Set([...source.matchAll(re)].map((m) => m[1]))].filter((s) => /^(\.{1,2})?\//.test(s));
  return {
    static: [
      ...relative(/(?:^|[^\w$.])import\s*(?:[\w$*{}\s,]+?from\s*)?["']([^"']+)["']/g),
      ...relative(
        /(?:^|[^\w$.])export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["']([^"']+)["']/g,
      ),
    ],
    lazy: relative(/(?:^|[^\w$.])import\s*\(\s*["']([^"']+)["']\s*\)/g),
  };
}

/** Fetches `path` and every same-origin script it loads, transitively; sums raw and gzip sizes. */
export async function measurePageJs(origin: string, path: string, get: Fetcher): Promise<PageJs> {
  const res = await get(new URL(path, origin).href);
  const html = await res.text();
  const { urls, inline, state } = pageScripts(html);
  const scripts: ScriptSize[] = [];
  for (const [i, body] of inline.entries()) {
    const bytes = new TextEncoder().encode(body);
    scripts.push({ url: `(inline #${i + 1})`, bytes: bytes.length, gzip: await gzipSize(bytes) });
  }
  const seen = new Set<string>();
  const lazy = new Set<string>();
  const queue = urls.map((u) => new URL(u, origin).href);
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url) || new URL(url).origin !== origin) continue;
    seen.add(url);
    const script = await get(url);
    if (!script.ok) throw new Error(`${path}: script ${url} answered ${script.status}`);
    const bytes = new Uint8Array(await script.arrayBuffer());
    scripts.push({ url: new URL(url).pathname, bytes: bytes.length, gzip: await gzipSize(bytes) });
    const imports = moduleImports(new TextDecoder().decode(bytes));
    queue.push(...imports.static.map((s) => new URL(s, url).href));
    imports.lazy.forEach((s) => lazy.add(new URL(s, url).pathname));
  }
  for (const script of scripts) lazy.delete(script.url);
  return {
    path,
    status: res.status,
    islands: (state?.islands ?? []).map(([name]) => name),
    scripts,
    lazy: [...lazy],
    bytes: scripts.reduce((sum, s) => sum + s.bytes, 0),
    gzip: scripts.reduce((sum, s) => sum + s.gzip, 0),
  };
}

interface Competition {
  id: number;
  status: string;
}

/** Public routes of the real app worth comparing (ids from the demo data). */
async function candidatePaths(origin: string): Promise<string[]> {
  const res = await fetch(`${origin}/api/competitions`);
  const competitions = await res.json() as Competition[];
  const open = competitions.find((c) => c.status === "UPCOMING") ?? competitions[0];
  const live = competitions.find((c) => c.status === "LIVE") ?? competitions[0];
  const paths = [
    "/this-page-does-not-exist",
    "/confirmation/FFT-NOTFOUND",
    "/email-test",
    "/",
    "/admin/login",
  ];
  if (open) paths.push(`/team-selection/${open.id}`, `/payment/${open.id}`);
  if (live) paths.push(`/leaderboard/${live.id}`);
  return paths;
}

/** Island names of `page` beyond those of `base` (multiset difference). */
function extraIslands(page: PageJs, base: PageJs): string[] {
  const rest = [...base.islands];
  return page.islands.filter((name) => {
    const i = rest.indexOf(name);
    if (i < 0) return true;
    rest.splice(i, 1);
    return false;
  });
}

/** The page with the fewest islands, and a page that has exactly one island more. */
function pickPages(pages: PageJs[]): { none: PageJs; one: PageJs | null } {
  const none = pages.reduce((a, b) => (b.islands.length < a.islands.length ? b : a));
  const one = pages.find((p) =>
    p.islands.length === none.islands.length + 1 &&
    extraIslands(p, none).length === 1
  ) ?? null;
  return { none, one };
}

/**
 * The framework floor: the real build settings, twind plugin and EmailTestForm island, in an app
 * with two bare pages (no `_app`, so no shell islands), served in-process.
 */
async function frameworkFloor(): Promise<{ none: PageJs; one: PageJs }> {
  const outDir = await Deno.makeTempDir({ prefix: "foundation-floor-" });
  try {
    const manifest: Manifest = {
      routes: {
        "./routes/none.tsx": { default: () => h("main", { className: "p-4" }, "No island here") },
        "./routes/one.tsx": {
          default: () => h("main", { className: "p-4" }, h(emailTestIsland.default, {})),
        },
      },
      islands: { "./islands/EmailTestForm.tsx": emailTestIsland },
      baseUrl: new URL("fresh.gen.ts", ROOT).href,
    };
    // An empty outDir: never pick up a `_fresh/` snapshot of the whole app.
    const handler = await createHandler(manifest, { ...config, dev: false, build: { outDir } });
    const get: Fetcher = (url) => handler(new Request(url));
    const origin = "http://localhost";
    return {
      none: await measurePageJs(origin, "/none", get),
      one: await measurePageJs(origin, "/one", get),
    };
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Requests/s under wrk

/** One wrk run. */
export interface WrkRun {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Server CPU time per request (user + system, all threads): independent of other load. */
  cpuMsPerRequest: number;
  errors: string | null;
}

/** Median figures of several wrk runs against one URL. */
export interface WrkResult {
  path: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  runs: WrkRun[];
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : n;
}

/** Parses `wrk --latency` output. */
export function parseWrk(out: string): Omit<WrkRun, "cpuMsPerRequest"> {
  const num = (re: RegExp) => out.match(re);
  const rps = num(/Requests\/sec:\s+([\d.]+)/);
  const p50 = num(/^\s+50%\s+([\d.]+)(us|ms|s|m)\s*$/m);
  const p99 = num(/^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m);
  const requests = num(/(\d+) requests in/);
  if (!rps || !p50 || !p99 || !requests) throw new Error(`cannot read wrk output:\n${out}`);
  const errors = [
    num(/Socket errors:[^\n]*/)?.[0],
    num(/Non-2xx or 3xx responses:\s*\d+/)?.[0],
  ].filter(Boolean).join("; ");
  return {
    rps: Number(rps[1]),
    p50Ms: toMs(p50[1], p50[2]),
    p99Ms: toMs(p99[1], p99[2]),
    requests: Number(requests[1]),
    errors: errors || null,
  };
}

/** The wrk executable on PATH, or null. */
async function wrkPath(): Promise<string | null> {
  const dirs = (Deno.env.get("PATH") ?? "/usr/bin").split(":").filter(Boolean);
  for (const dir of dirs) {
    try {
      if ((await Deno.stat(`${dir}/wrk`)).isFile) return `${dir}/wrk`;
    } catch {
      // not there
    }
  }
  return null;
}

async function runWrk(wrk: string, url: string, seconds: number): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(wrk, {
    args: [`-t${WRK.threads}`, `-c${WRK.connections}`, `-d${seconds}s`, "--latency", url],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(WRK_TIMEOUT_MS),
  }).output();
  const out = new TextDecoder().decode(stdout);
  if (code !== 0) throw new Error(`wrk failed (${code}): ${new TextDecoder().decode(stderr)}`);
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Warms up, then runs wrk WRK.runs times against `url` and takes the medians. */
async function loadTest(wrk: string, app: App, path: string): Promise<WrkResult> {
  await runWrk(wrk, app.url + path, WRK.warmupSeconds);
  const runs: WrkRun[] = [];
  for (let i = 0; i < WRK.runs; i++) {
    const cpuBefore = await app.cpuMs();
    const run = parseWrk(await runWrk(wrk, app.url + path, WRK.seconds));
    const cpuMsPerRequest = (await app.cpuMs() - cpuBefore) / Math.max(run.requests, 1);
    runs.push({ ...run, cpuMsPerRequest: round(cpuMsPerRequest, 3) });
  }
  return {
    path,
    rps: median(runs.map((r) => r.rps)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuMsPerRequest: median(runs.map((r) => r.cpuMsPerRequest)),
    runs,
  };
}

// ---------------------------------------------------------------------------------------------
// The run

/** Every figure of one run (also written to .bench-out/foundation.json). */
export interface FoundationResult {
  at: string;
  commit: string;
  machine: { cpus: number; loadAvgBefore: string; loadAvgAfter: string };
  js: {
    noIsland: PageJs;
    oneIsland: PageJs | null;
    /** Island names the page with the fewest islands still carries (the `_app` shell). */
    shellIslands: string[];
    /** gzip of the one-island page / gzip of the no-island page. */
    ratio: number | null;
    pages: Omit<PageJs, "scripts">[];
    floor: { noIsland: PageJs; oneIsland: PageJs };
  };
  load: { home: WrkResult; api: WrkResult; homeToApi: number } | { skipped: string };
  freshClone: unknown;
}

async function loadAvg(): Promise<string> {
  try {
    return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
}

async function gitCommit(): Promise<string> {
  try {
    const { stdout } = await new Deno.Command("git", {
      args: ["-C", ROOT.pathname, "describe", "--always", "--dirty"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return new TextDecoder().decode(stdout).trim() || "unknown";
  } catch {
    return "unknown";
  }
}

async function readFreshClone(): Promise<unknown> {
  try {
    return JSON.parse(await Deno.readTextFile(new URL("fresh_clone.json", OUT_DIR)));
  } catch {
    return null;
  }
}

/** Runs the foundation benchmark and returns its figures. */
export async function runFoundationBench(): Promise<FoundationResult> {
  const loadAvgBefore = await loadAvg();
  const floor = await frameworkFloor();
  const wrk = await wrkPath();
  const app = await startApp();
  try {
    const paths = await candidatePaths(app.url);
    const pages: PageJs[] = [];
    for (const path of paths) pages.push(await measurePageJs(app.url, path, (u) => fetch(u)));
    const { none, one } = pickPages(pages);
    let load: FoundationResult["load"] = {
      skipped: "wrk not found (install it: apt-get install -y wrk)",
    };
    if (wrk) {
      const home = await loadTest(wrk, app, "/");
      const api = await loadTest(wrk, app, "/api/competitions");
      load = { home, api, homeToApi: round(home.rps / api.rps, 3) };
    }
    return {
      at: new Date().toISOString(),
      commit: await gitCommit(),
      machine: {
        cpus: navigator.hardwareConcurrency,
        loadAvgBefore,
        loadAvgAfter: await loadAvg(),
      },
      js: {
        noIsland: none,
        oneIsland: one,
        shellIslands: none.islands,
        ratio: one ? round(one.gzip / Math.max(none.gzip, 1), 2) : null,
        pages: pages.map(({ scripts: _, ...page }) => page),
        floor: { noIsland: floor.none, oneIsland: floor.one },
      },
      load,
      freshClone: await readFreshClone(),
    };
  } finally {
    await app.stop();
  }
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

const kb = (bytes: number) => `${round(bytes / 1024, 1)} KB`;

function islandList(page: PageJs): string {
  return page.islands.length ? `${page.islands.length}: ${page.islands.join(", ")}` : "0";
}

interface FreshCloneRun {
  npmInstallS: number;
  firstResponseS: number;
}

function freshCloneText(fc: unknown): string {
  const r = fc as { at?: string; cold?: FreshCloneRun | null; warm?: FreshCloneRun | null } | null;
  if (!r) return "not measured yet: run bench/fresh_clone.sh (needs the npm registry)";
  const text = (name: string, run?: FreshCloneRun | null) =>
    run ? `${name}: npm install ${run.npmInstallS} s, first 200 ${run.firstResponseS} s` : "";
  const runs = [text("cold cache", r.cold), text("warm cache", r.warm)].filter(Boolean);
  return `${runs.join("; ")} (bench/fresh_clone.sh at ${r.at})`;
}

function loadText(t: WrkResult): string {
  const errors = t.runs.map((run) => run.errors).filter(Boolean);
  return `${round(t.rps)} req/s, p50 ${round(t.p50Ms, 2)} ms, p99 ${round(t.p99Ms, 2)} ms, ` +
    `server CPU ${t.cpuMsPerRequest} ms/req` +
    (errors.length ? `  ERRORS: ${errors.join(" | ")}` : "");
}

/** The figures as table lines. */
function report(r: FoundationResult): string[] {
  const rows: [string, string][] = [];
  const { noIsland, oneIsland, floor } = r.js;
  const shell = noIsland.islands.length === 0 ? "" : " (every route has the _app shell islands)";
  rows.push([
    `JS gzip, fewest islands: ${noIsland.path}`,
    `${kb(noIsland.gzip)} [${islandList(noIsland)}]${shell}`,
  ]);
  if (oneIsland) {
    const extra = extraIslands(oneIsland, noIsland)[0];
    rows.push([`JS gzip, one island more: ${oneIsland.path}`, `${kb(oneIsland.gzip)} [+${extra}]`]);
    rows.push([
      "  ratio (one more / fewest)",
      `${r.js.ratio}x, +${kb(oneIsland.gzip - noIsland.gzip)}`,
    ]);
  } else {
    rows.push(["JS gzip, one island more", "no route has exactly one island more than the fewest"]);
  }
  for (const page of r.js.pages) {
    rows.push([
      `  ${page.path} (${page.status})`,
      `${kb(page.gzip)} [${page.islands.length} islands]`,
    ]);
  }
  rows.push(["framework floor: bare page, 0 islands", kb(floor.noIsland.gzip)]);
  rows.push(["framework floor: bare page, 1 island (EmailTestForm)", kb(floor.oneIsland.gzip)]);
  if ("skipped" in r.load) {
    rows.push(["requests/s", `SKIPPED: ${r.load.skipped}`]);
  } else {
    const how =
      `wrk -t${WRK.threads} -c${WRK.connections} -d${WRK.seconds}s, median of ${WRK.runs}`;
    rows.push([`req/s GET / (${how})`, loadText(r.load.home)]);
    rows.push([`req/s GET /api/competitions`, loadText(r.load.api)]);
    rows.push(["  ratio (/ to /api/competitions)", `${r.load.homeToApi}`]);
  }
  rows.push(["npm install && npm start (fresh clone)", freshCloneText(r.freshClone)]);
  const m = r.machine;
  rows.push([
    "machine",
    `${m.cpus} CPUs, load avg ${m.loadAvgBefore} -> ${m.loadAvgAfter}, ${r.commit}`,
  ]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `foundation: ${label.padEnd(width)}  ${value}`);
}

if (import.meta.main) {
  const result = await runFoundationBench();
  await Deno.mkdir(OUT_DIR, { recursive: true });
  await Deno.writeTextFile(
    new URL("foundation.json", OUT_DIR),
    JSON.stringify(result, null, 2) + "\n",
  );
  for (const line of report(result)) console.log(line);
  console.log("foundation: figures written to .bench-out/foundation.json");
}
