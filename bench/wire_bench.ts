/**
 * What a visitor's browser receives, measured against the real app as `npm start`
 * serves it (scripts/start.ts: `deno serve --parallel`, one isolate per core, demo data in a
 * temporary KV file):
 * - bytes received per page, cold cache, with the server's own encoding: the page (redirects
 *   followed) and every script, modulepreload, island/plugin chunk (and their static imports),
 *   stylesheet and font it references, each fetched over a raw socket with
 *   `Accept-Encoding: br, gzip`, counting the bytes on the wire (headers included);
 * - requests/s per page under `wrk -t2 -c50` (same Accept-Encoding), beside the requests/s of the
 *   biggest static island chunk in the same run, and the ratio;
 * - Lighthouse (npm `lighthouse`, pinned in bench/lighthouse/package.json, installed there on
 *   first use) against /usr/bin/chromium headless, default mobile settings (simulated
 *   throttling): performance score, LCP and TBT of `/`, `/team-selection/{id}`, `/payment/{id}`
 *   and `/leaderboard/{id}`, each the median of `WIRE_LIGHTHOUSE_RUNS` runs (default 3).
 *   `WIRE_LIGHTHOUSE=0` skips it, `WIRE_LOAD=0` skips the load test.
 *
 * Run: `deno task bench wire` (it builds first, as `npm start` does, when `_fresh/` is stale).
 * Writes .bench-out/wire.json. The server binds 127.0.0.1 on a free port (tests/helpers/server.ts).
 */
import zlib from "node:zlib";
import { buildIfStale } from "@/scripts/build_if_stale.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { buyEntryAnswer, postJson } from "@/tests/e2e/visitor_helpers.ts";
import { moduleImports, parseWrk } from "./foundation_bench.ts";

const ROOT = new URL("../", import.meta.url);
const OUT_DIR = new URL(".bench-out/", ROOT);
const LIGHTHOUSE_DIR = new URL("lighthouse/", import.meta.url);
const CHROME_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];
const WRK = { threads: 2, connections: 50, seconds: 5, warmupSeconds: 2 };
const ACCEPT_ENCODING = "br, gzip";

/** Byte budgets of the issue, cold cache, in KB (1 KB = 1000 bytes). */
const BUDGET_KB: Record<string, number> = {
  home: 25,
  teamSelection: 40,
  payment: 45,
  leaderboard: 45,
  admin: 60,
  league: 45,
  // Not in the issue: the budget of the other pages a buyer sees (payment, leaderboard, league).
  confirmation: 45,
};
const RPS_RATIO_TARGET = 0.2;
const LIGHTHOUSE_TARGET = { score: 95, lcpMs: 1500 };

// ---------------------------------------------------------------------------------------------
// Bytes on the wire

interface RawAnswer {
  status: number;
  headers: Headers;
  /** Bytes received: status line, headers and body as sent. */
  wireBytes: number;
  /** The body decoded (Content-Encoding undone). */
  body: Uint8Array;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function dechunk(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let pos = 0;
  const text = new TextDecoder("latin1");
  for (;;) {
    let end = pos;
    while (end < bytes.length - 1 && !(bytes[end] === 13 && bytes[end + 1] === 10)) end++;
    const size = parseInt(text.decode(bytes.subarray(pos, end)), 16);
    if (!size) return concat(parts);
    parts.push(bytes.subarray(end + 2, end + 2 + size));
    pos = end + 2 + size + 2;
  }
}

/** One GET over a fresh HTTP/1.1 connection (a cold cache), counting every byte received. */
async function rawGet(url: string): Promise<RawAnswer> {
  const { hostname, port, pathname, search } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const request = `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
    `Accept-Encoding: ${ACCEPT_ENCODING}\r\nAccept: */*\r\nConnection: close\r\n\r\n`;
  await conn.write(new TextEncoder().encode(request));
  const received: Uint8Array[] = [];
  for await (const chunk of conn.readable) received.push(chunk);
  const all = concat(received);
  let headerEnd = 0;
  while (headerEnd < all.length - 3) {
    if (all[headerEnd] === 13 && all[headerEnd + 1] === 10 && all[headerEnd + 2] === 13) break;
    headerEnd++;
  }
  const head = new TextDecoder().decode(all.subarray(0, headerEnd)).split("\r\n");
  const status = Number(head[0].split(" ")[1]);
  const headers = new Headers();
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let body = all.subarray(headerEnd + 4);
  if (headers.get("transfer-encoding")?.includes("chunked")) body = dechunk(body);
  const encoding = headers.get("content-encoding");
  if (encoding === "br") body = new Uint8Array(zlib.brotliDecompressSync(body));
  else if (encoding === "gzip") body = new Uint8Array(zlib.gunzipSync(body));
  return { status, headers, wireBytes: all.length, body };
}

function attr(attrs: string, name: string): string | null {
  const m = attrs.match(new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`));
  return m ? (m[1] ?? m[2] ?? m[3]).replaceAll("&amp;", "&") : null;
}

type Kind = "html" | "js" | "css" | "font";

/** What an HTML page makes the browser fetch right away. */
function pageResources(html: string): { url: string; kind: Kind }[] {
  const found: { url: string; kind: Kind }[] = [];
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const src = attr(attrs, "src");
    if (src) found.push({ url: src, kind: "js" });
    if (attr(attrs, "id") === "__FRSH_STATE") {
      // Islands come with the page entry (the module script); plugins name their scripts.
      const state = JSON.parse(body) as { plugins: [string][] };
      for (const [url] of state.plugins) found.push({ url, kind: "js" });
    }
  }
  for (const [, attrs] of html.matchAll(/<link\b([^>]*)>/g)) {
    const rel = attr(attrs, "rel"), href = attr(attrs, "href");
    if (!href) continue;
    if (rel === "modulepreload") found.push({ url: href, kind: "js" });
    if (rel === "stylesheet") found.push({ url: href, kind: "css" });
    if (rel === "preload" && attr(attrs, "as") === "font") found.push({ url: href, kind: "font" });
  }
  return found;
}

/** Fonts a stylesheet pulls in. */
function cssFonts(css: string): string[] {
  return [...css.matchAll(/url\(\s*["']?([^"')]+\.(?:woff2?|ttf|otf))["']?\s*\)/g)].map((m) =>
    m[1]
  );
}

/** Bytes received for a page, cold: the page (and redirects) plus everything it loads. */
export interface PageBytes {
  path: string;
  status: number;
  total: number;
  byKind: Record<Kind, number>;
  files: number;
}

async function measurePage(origin: string, path: string): Promise<PageBytes> {
  const byKind: Record<Kind, number> = { html: 0, js: 0, css: 0, font: 0 };
  let url = new URL(path, origin).href;
  let page = await rawGet(url);
  byKind.html += page.wireBytes;
  for (let hops = 0; page.status >= 300 && page.status < 400 && hops < 5; hops++) {
    url = new URL(page.headers.get("location")!, url).href;
    page = await rawGet(url);
    byKind.html += page.wireBytes;
  }
  const html = new TextDecoder().decode(page.body);
  const queue = pageResources(html).map((r) => ({ ...r, url: new URL(r.url, url).href }));
  for (const style of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) {
    queue.push(
      ...cssFonts(style[1]).map((f) => ({ url: new URL(f, url).href, kind: "font" as Kind })),
    );
  }
  const seen = new Set<string>();
  while (queue.length > 0) {
    const item = queue.shift()!;
    if (seen.has(item.url) || new URL(item.url).origin !== origin) continue;
    seen.add(item.url);
    const res = await rawGet(item.url);
    if (res.status !== 200) throw new Error(`${path}: ${item.url} answered ${res.status}`);
    byKind[item.kind] += res.wireBytes;
    const text = new TextDecoder().decode(res.body);
    if (item.kind === "js") {
      for (const spec of moduleImports(text).static) {
        queue.push({ url: new URL(spec, item.url).href, kind: "js" });
      }
    }
    if (item.kind === "css") {
      for (const font of cssFonts(text)) {
        queue.push({ url: new URL(font, item.url).href, kind: "font" });
      }
    }
  }
  const total = Object.values(byKind).reduce((a, b) => a + b, 0);
  return { path, status: page.status, total, byKind, files: seen.size + 1 };
}

// ---------------------------------------------------------------------------------------------
// Requests per second

async function wrk(url: string, seconds: number): Promise<ReturnType<typeof parseWrk>> {
  const { code, stdout, stderr } = await new Deno.Command("wrk", {
    args: [
      `-t${WRK.threads}`,
      `-c${WRK.connections}`,
      `-d${seconds}s`,
      "--latency",
      "-H",
      `Accept-Encoding: ${ACCEPT_ENCODING}`,
      url,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`wrk failed: ${new TextDecoder().decode(stderr)}`);
  return parseWrk(new TextDecoder().decode(stdout));
}

async function hasWrk(): Promise<boolean> {
  try {
    return (await new Deno.Command("wrk", { args: ["-v"], stdout: "null", stderr: "null" })
      .output()).code <= 1;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

interface LighthouseFigures {
  path: string;
  score: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  cls: number;
}

async function lighthouseCli(): Promise<string | null> {
  const cli = new URL("node_modules/lighthouse/cli/index.js", LIGHTHOUSE_DIR);
  const exists = () => Deno.stat(cli).then(() => true, () => false);
  if (!(await exists())) {
    console.log("wire: installing the pinned lighthouse into bench/lighthouse/ (npm ci) …");
    const { code } = await new Deno.Command("npm", {
      args: ["ci", "--no-audit", "--no-fund", "--prefix", LIGHTHOUSE_DIR.pathname],
      stdout: "null",
      stderr: "inherit",
    }).output().catch(() => ({ code: 1 }));
    if (code !== 0 || !(await exists())) return null;
  }
  return cli.pathname;
}

async function chromePath(): Promise<string | null> {
  for (const path of [Deno.env.get("CHROME_PATH"), ...CHROME_CANDIDATES]) {
    if (path && await Deno.stat(path).then(() => true, () => false)) return path;
  }
  return null;
}

/** Lighthouse runs per page; each figure is the median of the runs (Lighthouse varies run to run). */
const LIGHTHOUSE_RUNS = Math.max(1, Number(Deno.env.get("WIRE_LIGHTHOUSE_RUNS") ?? 3));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Each figure's median over the runs of one page. */
function medianFigures(runs: LighthouseFigures[]): LighthouseFigures {
  return {
    path: runs[0].path,
    score: median(runs.map((r) => r.score)),
    lcpMs: median(runs.map((r) => r.lcpMs)),
    tbtMs: median(runs.map((r) => r.tbtMs)),
    fcpMs: median(runs.map((r) => r.fcpMs)),
    cls: median(runs.map((r) => r.cls)),
  };
}

/** Lighthouse sometimes fails to record its trace (NO_NAVSTART, NO_FCP): such a run is redone. */
const LIGHTHOUSE_ATTEMPTS = 3;

async function lighthouse(cli: string, chrome: string, url: string): Promise<LighthouseFigures> {
  for (let attempt = 1;; attempt++) {
    try {
      return await lighthouseOnce(cli, chrome, url);
    } catch (err) {
      if (attempt >= LIGHTHOUSE_ATTEMPTS) throw err;
      console.log(`wire: lighthouse run ${attempt} of ${url} failed, again: ${err}`.slice(0, 300));
    }
  }
}

async function lighthouseOnce(
  cli: string,
  chrome: string,
  url: string,
): Promise<LighthouseFigures> {
  const { code, stdout, stderr } = await new Deno.Command("node", {
    args: [
      cli,
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      "--only-categories=performance",
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
    ],
    env: { CHROME_PATH: chrome },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`lighthouse failed: ${new TextDecoder().decode(stderr)}`);
  const report = JSON.parse(new TextDecoder().decode(stdout));
  const audit = (id: string) => report.audits[id]?.numericValue as number;
  return {
    path: new URL(url).pathname,
    score: Math.round(report.categories.performance.score * 100),
    lcpMs: Math.round(audit("largest-contentful-paint")),
    tbtMs: Math.round(audit("total-blocking-time")),
    fcpMs: Math.round(audit("first-contentful-paint")),
    cls: Math.round(audit("cumulative-layout-shift") * 1000) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------
// The run

interface CompetitionRow {
  id: number;
  status: string;
}

/** The pages to measure, with ids from the demo data (an open contest, a live one). */
async function pickPages(origin: string): Promise<Record<string, string>> {
  const list = await (await fetch(`${origin}/api/competitions`)).json() as CompetitionRow[];
  const open = list.find((c) => c.status === "UPCOMING") ?? list[0];
  const live = list.find((c) => c.status === "LIVE") ?? list[0];
  return {
    home: "/",
    teamSelection: `/team-selection/${open.id}`,
    payment: `/payment/${open.id}`,
    leaderboard: `/leaderboard/${live.id}`,
    admin: "/admin",
    ...await entryPages(origin, open.id),
  };
}

/**
 * One entry bought in the open contest (test-mode card): its confirmation page and the page of a
 * friends' league of it.
 */
async function entryPages(
  origin: string,
  cid: number,
): Promise<{ league: string; confirmation: string }> {
  const entry = await buyEntryAnswer(origin, cid, {
    email: "wire-bench@example.com",
    teamName: "Wire Bench",
  });
  const { league } = await postJson(`${origin}/api/leagues`, {
    teamId: entry.teamId,
    editToken: entry.editToken,
    name: "Wire Bench League",
  });
  return {
    league: `/leagues/${(league as { id: string }).id}`,
    confirmation: `/confirmation/${entry.teamId}`,
  };
}

function kb(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}

export interface WireResult {
  at: string;
  bytes: Record<string, PageBytes & { budgetKb: number; ok: boolean }>;
  rps: {
    static: { path: string; rps: number };
    pages: Record<string, { rps: number; ratio: number; p99Ms: number }>;
  } | null;
  lighthouse: Record<string, LighthouseFigures & { ok: boolean; lcpRunsMs: number[] }> | null;
}

async function run(): Promise<WireResult> {
  // As `npm start` does: the browser bundles come from a current build.
  await buildIfStale();
  const kvDir = await Deno.makeTempDir({ prefix: "wire_bench_" });
  // As `npm start` serves it: `deno serve --parallel` (2 isolates here) over one KV file.
  const app = await startServer({ env: { DENO_KV_PATH: `${kvDir}/app.kv` } });
  try {
    const pages = await pickPages(app.url);
    const result: WireResult = {
      at: new Date().toISOString(),
      bytes: {},
      rps: null,
      lighthouse: null,
    };

    for (const [name, path] of Object.entries(pages)) {
      const bytes = await measurePage(app.url, path);
      result.bytes[name] = {
        ...bytes,
        budgetKb: BUDGET_KB[name],
        ok: bytes.total <= BUDGET_KB[name] * 1000,
      };
      const k = bytes.byKind;
      console.log(
        `wire: bytes ${path.padEnd(20)} ${kb(bytes.total).padStart(6)} KB ` +
          `(html ${kb(k.html)}, css ${kb(k.css)}, js ${kb(k.js)}, fonts ${kb(k.font)}; ` +
          `${bytes.files} files) budget ${BUDGET_KB[name]} KB ${
            result.bytes[name].ok ? "ok" : "OVER"
          }`,
      );
    }

    if (Deno.env.get("WIRE_LOAD") !== "0" && await hasWrk()) {
      const home = new TextDecoder().decode(
        (await rawGet(`${app.url}/team-selection/${pages.teamSelection.split("/").pop()}`)).body,
      );
      const chunks = pageResources(home).filter((r) => r.kind === "js");
      let biggest = { url: chunks[0].url, size: 0 };
      for (const chunk of chunks) {
        const size = (await rawGet(app.url + chunk.url)).body.length;
        if (size > biggest.size) biggest = { url: chunk.url, size };
      }
      await wrk(app.url + biggest.url, WRK.warmupSeconds);
      const staticRun = await wrk(app.url + biggest.url, WRK.seconds);
      console.log(
        `wire: req/s static chunk ${biggest.url.split("/").pop()}: ${staticRun.rps.toFixed(0)}`,
      );
      const rps: NonNullable<WireResult["rps"]> = {
        static: { path: biggest.url, rps: staticRun.rps },
        pages: {},
      };
      const loaded = { ...pages, api: "/api/competitions" } as Record<string, string>;
      delete loaded.admin;
      for (const [name, path] of Object.entries(loaded)) {
        await wrk(app.url + path, WRK.warmupSeconds);
        const r = await wrk(app.url + path, WRK.seconds);
        const ratio = r.rps / staticRun.rps;
        rps.pages[name] = { rps: r.rps, ratio: Math.round(ratio * 1000) / 1000, p99Ms: r.p99Ms };
        console.log(
          `wire: req/s ${path.padEnd(20)} ${r.rps.toFixed(0).padStart(6)} ` +
            `(${ratio.toFixed(2)}× static, p99 ${r.p99Ms} ms${r.errors ? `, ${r.errors}` : ""}) ` +
            `target ≥ ${RPS_RATIO_TARGET}× ${ratio >= RPS_RATIO_TARGET ? "ok" : "UNDER"}`,
        );
      }
      result.rps = rps;
    } else {
      console.log("wire: requests/s skipped (WIRE_LOAD=0, or no wrk: apt-get install wrk)");
    }

    const cli = Deno.env.get("WIRE_LIGHTHOUSE") === "0" ? null : await lighthouseCli();
    const chrome = await chromePath();
    if (cli && chrome) {
      result.lighthouse = {};
      for (const name of ["home", "teamSelection", "payment", "leaderboard"]) {
        const runs: LighthouseFigures[] = [];
        for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
          runs.push(await lighthouse(cli, chrome, app.url + pages[name]));
        }
        const figures = medianFigures(runs);
        const ok = figures.score >= LIGHTHOUSE_TARGET.score &&
          figures.lcpMs <= LIGHTHOUSE_TARGET.lcpMs;
        result.lighthouse[name] = { ...figures, ok, lcpRunsMs: runs.map((r) => r.lcpMs) };
        console.log(
          `wire: lighthouse ${pages[name].padEnd(20)} performance ${figures.score}, ` +
            `LCP ${(figures.lcpMs / 1000).toFixed(2)} s, TBT ${figures.tbtMs} ms, ` +
            `FCP ${(figures.fcpMs / 1000).toFixed(2)} s, CLS ${figures.cls} ${
              ok ? "ok" : "UNDER"
            } ` +
            `(median of ${runs.length}; LCP ${
              runs.map((r) => (r.lcpMs / 1000).toFixed(2)).join(" / ")
            } s)`,
        );
      }
    } else {
      console.log("wire: lighthouse skipped (WIRE_LIGHTHOUSE=0, no npm, or no Chromium)");
    }
    return result;
  } finally {
    await app.stop();
    await Deno.remove(kvDir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const result = await run();
  await Deno.mkdir(OUT_DIR, { recursive: true });
  await Deno.writeTextFile(new URL("wire.json", OUT_DIR), JSON.stringify(result, null, 2) + "\n");
  console.log("wire: figures written to .bench-out/wire.json");
}
