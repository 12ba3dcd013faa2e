/**
 * Browser bundling with esbuild: one entry module per page group (the islands a group of routes
 * can render, see `page_groups.ts`, plus the boot code) and the plugin entrypoints, code-split so
 * what several groups share (preact above all) is loaded once. One entry per page rather than one
 * per island: a page loads a handful of files instead of one per island and per shared module
 * (each costs headers and compresses worse alone). Builds are kept in memory or written to a
 * snapshot folder (`_fresh/`), with brotli and gzip variants, that later starts reuse.
 */
import * as esbuild from "esbuild";
import { basename, dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { compressMax, MIN_FIXED_COMPRESS_BYTES, PREFER_SMALLEST } from "./compress.ts";
import {
  emptyFolds,
  foldPlugin,
  type Folds,
  lazyTarget,
  planFolds,
  referenceSource,
} from "./fold.ts";
import { pageGroups } from "./page_groups.ts";
import { loadImportMap, resolverPlugin } from "./resolve.ts";

/** One page entry: the islands it boots and its file. */
export interface PageGroup {
  name: string;
  /** Island names, sorted. */
  islands: string[];
  file: string;
}

/** A finished build: file contents by name plus what the renderer needs to reference them. */
export interface Build {
  buildId: string;
  /** Page entries, fewest islands first; every island is in at least one. */
  groups: PageGroup[];
  /** Plugin entrypoint name → file name. */
  entrypoints: Record<string, string>;
  /** File name → file names it imports statically. */
  deps: Record<string, string[]>;
  /**
   * Island name → the app's source files (relative to the root) it is made of, static and lazy
   * imports followed: what the island can render in the browser (the twind plugin scans them).
   */
  islandInputs: Record<string, string[]>;
  /** What each plugin's `buildReady` returned at `dev.ts build`, by plugin name. */
  pluginData: Record<string, unknown>;
  /** Whether this build was written by the build step (with compressed variants). */
  prebuilt: boolean;
  /** Reads one output file; null when absent. */
  read(file: string): Promise<Uint8Array | null>;
  /** Reads the brotli/gzip variant made at build time; null when there is none. */
  readEncoded(file: string, encoding: "br" | "gzip"): Promise<Uint8Array | null>;
}

/** What to bundle. */
export interface BundleOptions {
  rootDir: string;
  /** Island name → absolute file path. */
  islands: Record<string, string>;
  /** Route files relative to `rootDir` (`routes/index.tsx`): they define the page groups. */
  routes: string[];
  /** Plugin entrypoint name → file: URL, absolute path or data: URL. */
  entrypoints: Record<string, string>;
  dev: boolean;
  target?: string | string[];
  /** Page groups whose own code is never folded into other pages' chunks (see FreshConfig). */
  foldApart?: RegExp;
}

interface Snapshot {
  buildId: string;
  groups: PageGroup[];
  entrypoints: Record<string, string>;
  deps: Record<string, string[]>;
  islandInputs: Record<string, string[]>;
  /** Source files of the bundle (relative to the app root) and a hash of their contents. */
  inputs: string[];
  inputsHash: string;
  pluginData: Record<string, unknown>;
}

/** A fresh build, with its files in memory. */
export type MemoryBuild = Build & Snapshot & { files: Map<string, Uint8Array> };

const FRESH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const CLIENT_MAIN = join(FRESH_DIR, "src", "client", "main.ts");
const OUT = "/frsh-out"; // never written: builds stay in memory

let queue: Promise<unknown> = Promise.resolve();
let pending = 0;

/** Runs esbuild builds one at a time and stops its service when idle, so nothing leaks. */
function serialized<T>(task: () => Promise<T>): Promise<T> {
  pending++;
  const run = queue.then(task).finally(async () => {
    if (--pending === 0) await esbuild.stop();
  });
  queue = run.catch(() => {});
  return run;
}

/** Bundles the page entries and plugin entrypoints in memory. */
export function bundle(opts: BundleOptions): Promise<MemoryBuild> {
  return serialized(async () => {
    const entryPoints: Record<string, string> = {};
    const pages = pageEntries(opts, await routeGroups(opts));
    for (const name of pages.keys()) entryPoints[`page-${name}`] = `${PAGE_NS}:${name}`;
    for (const [name, url] of Object.entries(opts.entrypoints)) entryPoints[`plugin-${name}`] = url;
    const importMap = await loadImportMap(opts.rootDir);
    const folds = emptyFolds();
    const build = () =>
      esbuild.build({
        entryPoints,
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "browser",
        target: opts.target ?? "es2022",
        minify: !opts.dev,
        jsx: "automatic",
        jsxImportSource: "react",
        outdir: OUT,
        entryNames: "[name]-[hash]",
        chunkNames: "chunk-[hash]",
        absWorkingDir: opts.rootDir,
        write: false,
        metafile: true,
        logLevel: "silent",
        define: { "process.env.NODE_ENV": opts.dev ? '"development"' : '"production"' },
        plugins: [
          pagePlugin(pages, folds, opts),
          foldPlugin(folds),
          resolverPlugin(importMap, opts.rootDir),
        ],
      });
    let result = await build();
    // Folding a chunk can leave another small one: a few rounds settle it.
    for (
      let round = 0;
      round < FOLD_ROUNDS && planFolds(result.metafile, opts.rootDir, folds, opts.foldApart);
    ) {
      result = await build();
      round++;
    }
    const files = new Map<string, Uint8Array>();
    for (const file of result.outputFiles) files.set(basename(file.path), file.contents);
    const outputs = describeOutputs(result.metafile, pages, opts);
    if (!opts.dev) await mergePages(files, outputs, result.metafile, opts);
    const buildId = opts.dev ? crypto.randomUUID().replaceAll("-", "") : await hashFiles(files);
    // Inputs in other namespaces (data: entrypoints, page entries) are config, not files.
    const inputs = Object.keys(result.metafile.inputs).filter((path) => !/^[\w-]+:/.test(path))
      .sort();
    return {
      ...outputs,
      buildId,
      inputs,
      inputsHash: (await hashInputs(opts.rootDir, inputs)) ?? "",
      pluginData: {},
      prebuilt: false,
      files,
      read: (file: string) => Promise.resolve(files.get(file) ?? null),
      readEncoded: () => Promise.resolve(null),
    };
  });
}

const PAGE_NS = "frsh-page";
const MERGE_NS = "frsh-merge";
/** A chunk every page loads stays a file of its own from this size (bytes, minified). */
const SHARED_BYTES = 4096;

/**
 * Merges each page entry with the chunks it loads into one file. A cold visit then loads the
 * page's file and a shared chunk or two (preact, the boot code) instead of ten or more files,
 * each costing its headers (~250 bytes) and compressing worse alone. What stays a file of its
 * own: a chunk of at least `SHARED_BYTES` that every page loads (cached across pages), and any
 * chunk that a lazily imported chunk the page may load, or a plugin entrypoint, also loads (one
 * copy of each module at run time: a store module inlined as well would hold two states), and
 * the lazy chunks themselves. Updates `files` and `outputs.deps`.
 */
async function mergePages(
  files: Map<string, Uint8Array>,
  outputs: Pick<Snapshot, "groups" | "entrypoints" | "deps">,
  metafile: esbuild.Metafile,
  opts: BundleOptions,
): Promise<void> {
  const { deps, groups } = outputs;
  const lazyImports = new Map<string, string[]>();
  for (const [path, out] of Object.entries(metafile.outputs)) {
    const lazy = out.imports.filter((i) => i.kind === "dynamic-import");
    lazyImports.set(basename(path), lazy.map((i) => basename(i.path)));
  }
  /** The files `roots` load statically, and with `lazily` what they may import later too. */
  const closure = (roots: string[], lazily = false) => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      deps[file]?.forEach(visit);
      if (lazily) lazyImports.get(file)?.forEach(visit);
    };
    roots.forEach(visit);
    return seen;
  };
  const pageFiles = groups.map((g) => g.file).filter((file) => files.has(file));
  const loads = pageFiles.map((file) => closure([file]));
  const everyPage = [...loads[0] ?? []].filter((file) =>
    loads.every((set) => set.has(file)) && (files.get(file)?.length ?? 0) >= SHARED_BYTES
  );
  const plugins = closure(Object.values(outputs.entrypoints));
  const decoder = new TextDecoder();
  for (const [i, page] of pageFiles.entries()) {
    const later = [...closure([page], true)].flatMap((file) => lazyImports.get(file) ?? []);
    const keep = new Set([...everyPage, ...plugins, ...closure(later)]);
    if ([...loads[i]].every((file) => file === page || keep.has(file))) continue;
    const result = await esbuild.build({
      entryPoints: [`${MERGE_NS}:${page}`],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: opts.target ?? "es2022",
      minify: true,
      outdir: OUT,
      write: false,
      metafile: true,
      logLevel: "silent",
      plugins: [{
        name: "fresh-merge",
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            if (args.path.startsWith(`${MERGE_NS}:`)) {
              return { path: args.path.slice(MERGE_NS.length + 1), namespace: MERGE_NS };
            }
            const file = basename(args.path);
            if (args.kind === "dynamic-import" || keep.has(file) || !files.has(file)) {
              return { path: `./${file}`, external: true };
            }
            return { path: file, namespace: MERGE_NS };
          });
          build.onLoad({ filter: /.*/, namespace: MERGE_NS }, (args) => ({
            contents: decoder.decode(files.get(args.path)!),
            loader: "js",
          }));
        },
      }],
    });
    const [merged] = Object.values(result.metafile.outputs);
    files.set(page, result.outputFiles[0].contents);
    deps[page] = merged.imports.filter((i) => i.kind === "import-statement").map((i) =>
      basename(i.path)
    );
  }
}
const FOLD_ROUNDS = 3;
/** The route groups; none (one entry for all islands) if they cannot be read. */
async function routeGroups(opts: BundleOptions): Promise<Record<string, string[]>> {
  try {
    return await pageGroups(opts.rootDir, opts.routes, opts.islands);
  } catch (err) {
    console.warn("Could not read which islands each route renders; one entry for all:", err);
    return {};
  }
}

/** The name of the group of the islands no route imports (plugin routes may render them). */
const OTHER_ISLANDS = "other";

/** Group name → its island names: the route groups, deduplicated, and one of the others. */
function pageEntries(
  opts: BundleOptions,
  groups: Record<string, string[]>,
): Map<string, string[]> {
  const pages = new Map<string, string[]>();
  const seen = new Set<string>();
  const grouped = new Set<string>();
  // By name, so the build does not depend on the order the groups were found in.
  for (const name of Object.keys(groups).sort()) {
    const islands = [...new Set(groups[name])].filter((i) => opts.islands[i]).sort();
    if (islands.length === 0 || seen.has(islands.join())) continue;
    seen.add(islands.join());
    islands.forEach((island) => grouped.add(island));
    pages.set(name, islands);
  }
  const others = Object.keys(opts.islands).filter((island) => !grouped.has(island)).sort();
  if (others.length > 0) pages.set(OTHER_ISLANDS, others);
  return pages;
}

/** The source of a page entry: imports its islands and boots them (`refs`: see fold.ts). */
function pageSource(islands: string[], files: Record<string, string>, refs: Set<string>): string {
  const lines = [`import { boot } from ${JSON.stringify(CLIENT_MAIN)};`];
  islands.forEach((name, i) => lines.push(`import i${i} from ${JSON.stringify(files[name])};`));
  const table = islands.map((name, i) => `${JSON.stringify(name)}: i${i}`).join(", ");
  lines.push(`boot({ ${table} });`);
  return lines.join("\n") + "\n" + referenceSource(refs);
}

/** Serves the page entries (`frsh-page:<group>`) as virtual modules. */
function pagePlugin(
  pages: Map<string, string[]>,
  folds: Folds,
  opts: BundleOptions,
): esbuild.Plugin {
  return {
    name: "fresh-pages",
    setup(build) {
      build.onResolve(
        { filter: new RegExp(`^${PAGE_NS}:`) },
        (args) => ({ path: args.path.slice(PAGE_NS.length + 1), namespace: PAGE_NS }),
      );
      build.onLoad({ filter: /.*/, namespace: PAGE_NS }, (args) => ({
        contents: pageSource(
          pages.get(args.path) ?? [],
          opts.islands,
          folds.refs.get(`page:${args.path}`) ?? new Set(),
        ),
        loader: "js",
        resolveDir: opts.rootDir,
      }));
    },
  };
}

function describeOutputs(
  metafile: esbuild.Metafile,
  pages: Map<string, string[]>,
  opts: BundleOptions,
): Pick<Snapshot, "groups" | "entrypoints" | "deps" | "islandInputs"> {
  const deps: Record<string, string[]> = {};
  for (const [path, output] of Object.entries(metafile.outputs)) {
    if (!path.endsWith(".js")) continue;
    deps[basename(path)] = output.imports
      .filter((i) => i.kind === "import-statement")
      .map((i) => basename(i.path));
  }
  // Output names are the entry name plus "-<hash>.js".
  const files = Object.keys(deps);
  const fileOf = (name: string) =>
    files.find((f) => f.replace(/-[A-Z0-9]+\.js$/, "") === name) ?? "";
  const groups = [...pages].map(([name, islands]) => ({
    name,
    islands,
    file: fileOf(`page-${name}`),
  }));
  groups.sort((a, b) => a.islands.length - b.islands.length || (a.name < b.name ? -1 : 1));
  const entrypoints: Record<string, string> = {};
  for (const name of Object.keys(opts.entrypoints)) entrypoints[name] = fileOf(`plugin-${name}`);
  return { groups, entrypoints, deps, islandInputs: islandInputs(metafile, opts) };
}

/**
 * Island name → the app's source files (relative to the root) it is made of, static and lazy
 * imports followed: what the island can render in the browser (the twind plugin scans them).
 */
function islandInputs(metafile: esbuild.Metafile, opts: BundleOptions): Record<string, string[]> {
  const isSource = (input: string) => !/^[\w-]+:/.test(input) && !input.includes("node_modules/");
  const out: Record<string, string[]> = {};
  for (const [name, path] of Object.entries(opts.islands)) {
    const seen = new Set<string>();
    const visit = (input: string) => {
      // A lazy import's wrapper (fold.ts) stands for the module it wraps.
      const wrapped = lazyTarget(input, opts.rootDir);
      if (wrapped) return visit(wrapped);
      if (seen.has(input) || !isSource(input)) return;
      seen.add(input);
      for (const imported of metafile.inputs[input]?.imports ?? []) {
        if (!imported.external) visit(imported.path);
      }
    };
    visit(relative(opts.rootDir, path).split(sep).join("/"));
    out[name] = [...seen].sort();
  }
  return out;
}

/** A hash of the inputs' current contents (null when one is gone). */
async function hashInputs(rootDir: string, inputs: string[]): Promise<string | null> {
  const files = new Map<string, Uint8Array>();
  try {
    for (const input of inputs) files.set(input, await Deno.readFile(join(rootDir, input)));
  } catch {
    return null;
  }
  return await hashFiles(files);
}

async function hashFiles(files: Map<string, Uint8Array>): Promise<string> {
  const names = [...files.keys()].sort();
  const parts: Uint8Array[] = [];
  for (const name of names) parts.push(new TextEncoder().encode(name), files.get(name)!);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Writes a build to `outDir`: snapshot.json, js/ with each file's brotli (quality 11) and gzip
 * (level 9) variants beside it (`.br`, `.gz`), so no server compresses a chunk at start.
 */
export async function writeSnapshot(build: MemoryBuild, outDir: string): Promise<void> {
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(outDir, "js"), { recursive: true });
  for (const [name, contents] of build.files) {
    await Deno.writeFile(join(outDir, "js", name), contents);
    if (contents.length < MIN_FIXED_COMPRESS_BYTES) continue;
    for (const encoding of PREFER_SMALLEST) {
      await Deno.writeFile(
        join(outDir, "js", `${name}.${EXT[encoding]}`),
        compressMax(contents, encoding),
      );
    }
  }
  const { buildId, groups, entrypoints, deps, islandInputs, inputs, inputsHash, pluginData } =
    build;
  const snapshot: Snapshot = {
    buildId,
    groups,
    entrypoints,
    deps,
    islandInputs,
    inputs,
    inputsHash,
    pluginData,
  };
  await Deno.writeTextFile(join(outDir, "snapshot.json"), JSON.stringify(snapshot, null, 2) + "\n");
}

const EXT = { br: "br", gzip: "gz" } as const;

/**
 * Loads a snapshot written by `writeSnapshot`. Null when there is none, when it was written by
 * an older version of this core, or when a source file changed since the build (a warning says
 * so): a stale snapshot is never served.
 */
export async function readSnapshot(outDir: string, rootDir: string): Promise<Build | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(join(outDir, "snapshot.json"));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  const snapshot = JSON.parse(text) as Snapshot;
  if (
    !Array.isArray(snapshot.groups) ||
    (await hashInputs(rootDir, snapshot.inputs ?? [])) !== snapshot.inputsHash
  ) {
    console.warn(`The build in ${outDir} is out of date; bundling in memory instead.`);
    return null;
  }
  const cache = new Map<string, Uint8Array | null>();
  const readOnce = async (file: string) => {
    if (!/^[\w.-]+\.js(\.br|\.gz)?$/.test(file)) return null;
    if (!cache.has(file)) {
      cache.set(file, await Deno.readFile(join(outDir, "js", file)).catch(() => null));
    }
    return cache.get(file)!;
  };
  return {
    ...snapshot,
    islandInputs: snapshot.islandInputs ?? {},
    pluginData: snapshot.pluginData ?? {},
    prebuilt: true,
    read: (file) => file.endsWith(".js") ? readOnce(file) : Promise.resolve(null),
    readEncoded: (file, encoding) =>
      file.endsWith(".js") ? readOnce(`${file}.${EXT[encoding]}`) : Promise.resolve(null),
  };
}
