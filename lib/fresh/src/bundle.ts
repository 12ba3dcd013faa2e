/**
 * Browser bundling with esbuild: one chunk per island, the boot module and plugin entrypoints,
 * code-split so shared modules (preact above all) are loaded once. Builds are kept in memory
 * or written to a snapshot folder (`_fresh/`) that later starts reuse.
 */
import * as esbuild from "esbuild";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** A finished build: file contents by name plus what the renderer needs to reference them. */
export interface Build {
  buildId: string;
  /** File name of the boot module. */
  main: string;
  /** Island name → file name. */
  islands: Record<string, string>;
  /** Plugin entrypoint name → file name. */
  entrypoints: Record<string, string>;
  /** File name → file names it imports statically. */
  deps: Record<string, string[]>;
  /**
   * Island name → the app's source files (relative to the root) that its chunks, static and
   * lazy, are made of: what the island can render in the browser (the twind plugin scans them).
   */
  islandInputs: Record<string, string[]>;
  /** Reads one output file; null when absent. */
  read(file: string): Promise<Uint8Array | null>;
}

/** What to bundle. */
export interface BundleOptions {
  rootDir: string;
  /** Island name → absolute file path. */
  islands: Record<string, string>;
  /** Plugin entrypoint name → file: URL, absolute path or data: URL. */
  entrypoints: Record<string, string>;
  dev: boolean;
  target?: string | string[];
}

interface Snapshot {
  buildId: string;
  main: string;
  islands: Record<string, string>;
  entrypoints: Record<string, string>;
  deps: Record<string, string[]>;
  islandInputs: Record<string, string[]>;
  /** Source files of the bundle (relative to the app root) and a hash of their contents. */
  inputs: string[];
  inputsHash: string;
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

/** Bundles the islands, boot module and plugin entrypoints in memory. */
export function bundle(opts: BundleOptions): Promise<MemoryBuild> {
  return serialized(async () => {
    const entryPoints: Record<string, string> = { main: CLIENT_MAIN };
    for (const [name, path] of Object.entries(opts.islands)) entryPoints[`island-${name}`] = path;
    for (const [name, url] of Object.entries(opts.entrypoints)) entryPoints[`plugin-${name}`] = url;
    const result = await esbuild.build({
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
      plugins: [resolverPlugin(await loadImportMap(opts.rootDir), opts.rootDir)],
    });
    const files = new Map<string, Uint8Array>();
    for (const file of result.outputFiles) files.set(basename(file.path), file.contents);
    const outputs = describeOutputs(result.metafile, Object.keys(entryPoints));
    const buildId = opts.dev ? crypto.randomUUID().replaceAll("-", "") : await hashFiles(files);
    // Inputs in other namespaces (data: entrypoints) are part of the config, not of files.
    const inputs = Object.keys(result.metafile.inputs).filter((path) => !/^[\w-]+:/.test(path))
      .sort();
    return {
      ...outputs,
      buildId,
      inputs,
      inputsHash: (await hashInputs(opts.rootDir, inputs)) ?? "",
      files,
      read: (file: string) => Promise.resolve(files.get(file) ?? null),
    };
  });
}

function describeOutputs(
  metafile: esbuild.Metafile,
  entryNames: string[],
): Pick<Snapshot, "main" | "islands" | "entrypoints" | "deps" | "islandInputs"> {
  const deps: Record<string, string[]> = {};
  const allImports: Record<string, string[]> = {};
  const inputsOf: Record<string, string[]> = {};
  for (const [path, output] of Object.entries(metafile.outputs)) {
    if (!path.endsWith(".js")) continue;
    deps[basename(path)] = output.imports
      .filter((i) => i.kind === "import-statement")
      .map((i) => basename(i.path));
    allImports[basename(path)] = output.imports
      .filter((i) => i.kind === "import-statement" || i.kind === "dynamic-import")
      .map((i) => basename(i.path));
    inputsOf[basename(path)] = Object.keys(output.inputs)
      .filter((input) => !/^[\w-]+:/.test(input) && !input.includes("node_modules/"));
  }
  // Output names are the entry name plus "-<hash>.js".
  const files = Object.keys(deps);
  const fileOf = (name: string) =>
    files.find((f) => f.replace(/-[A-Z0-9]+\.js$/, "") === name) ?? "";
  const islands: Record<string, string> = {};
  const entrypoints: Record<string, string> = {};
  for (const name of entryNames) {
    if (name.startsWith("island-")) islands[name.slice(7)] = fileOf(name);
    if (name.startsWith("plugin-")) entrypoints[name.slice(7)] = fileOf(name);
  }
  const islandInputs: Record<string, string[]> = {};
  for (const [name, file] of Object.entries(islands)) {
    const seen = new Set<string>();
    const visit = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      allImports[f]?.forEach(visit);
    };
    visit(file);
    islandInputs[name] = [...new Set([...seen].flatMap((f) => inputsOf[f] ?? []))].sort();
  }
  return { main: fileOf("main"), islands, entrypoints, deps, islandInputs };
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

/** Writes a build to `outDir` (snapshot.json + js/). */
export async function writeSnapshot(build: MemoryBuild, outDir: string): Promise<void> {
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(outDir, "js"), { recursive: true });
  for (const [name, contents] of build.files) {
    await Deno.writeFile(join(outDir, "js", name), contents);
  }
  const { buildId, main, islands, entrypoints, deps, islandInputs, inputs, inputsHash } = build;
  const snapshot: Snapshot = {
    buildId,
    main,
    islands,
    entrypoints,
    deps,
    islandInputs,
    inputs,
    inputsHash,
  };
  await Deno.writeTextFile(join(outDir, "snapshot.json"), JSON.stringify(snapshot, null, 2) + "\n");
}

/**
 * Loads a snapshot written by `writeSnapshot`. Null when there is none, or when a source file
 * changed since the build (a warning says so): a stale snapshot is never served.
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
  if ((await hashInputs(rootDir, snapshot.inputs ?? [])) !== snapshot.inputsHash) {
    console.warn(`The build in ${outDir} is out of date; bundling in memory instead.`);
    return null;
  }
  const cache = new Map<string, Uint8Array | null>();
  const read = async (file: string) => {
    if (!/^[\w.-]+\.js$/.test(file)) return null;
    if (!cache.has(file)) {
      cache.set(file, await Deno.readFile(join(outDir, "js", file)).catch(() => null));
    }
    return cache.get(file)!;
  };
  return { ...snapshot, islandInputs: snapshot.islandInputs ?? {}, read };
}

type ImportMap = Record<string, string>;

/** The `imports` of the nearest deno.json above `rootDir`, so the bundle resolves like Deno. */
async function loadImportMap(rootDir: string): Promise<{ map: ImportMap; base: string }> {
  for (let dir = rootDir;; dir = dirname(dir)) {
    try {
      const json = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
      return { map: json.imports ?? {}, base: dir };
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    if (dirname(dir) === dir) return { map: {}, base: rootDir };
  }
}

/** `npm:preact@10.29.8/compat` → `preact/compat`. */
function stripNpm(specifier: string): string {
  const rest = specifier.slice(4).replace(/^\//, "");
  const match = rest.match(/^(@[^/]+\/[^@/]+|[^@/]+)(?:@[^/]*)?(\/.*)?$/);
  return match ? match[1] + (match[2] ?? "") : rest;
}

/** React names that must resolve to preact so there is one copy of it. */
const REACT_ALIASES: Record<string, string> = {
  "react": "preact/compat",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react/jsx-runtime": "preact/compat/jsx-runtime",
  "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
};

function mapSpecifier(specifier: string, importMap: { map: ImportMap; base: string }): string {
  if (REACT_ALIASES[specifier]) return REACT_ALIASES[specifier];
  const { map, base } = importMap;
  let mapped = map[specifier];
  if (mapped === undefined) {
    const prefix = Object.keys(map)
      .filter((key) => key.endsWith("/") && specifier.startsWith(key))
      .sort((a, b) => b.length - a.length)[0];
    if (prefix) mapped = map[prefix] + specifier.slice(prefix.length);
  }
  if (mapped === undefined) mapped = specifier;
  if (mapped.startsWith("npm:")) return stripNpm(mapped);
  if (mapped.startsWith("./") || mapped.startsWith("../")) return join(base, mapped);
  return mapped;
}

function resolverPlugin(
  importMap: { map: ImportMap; base: string },
  rootDir: string,
): esbuild.Plugin {
  return {
    name: "fresh-resolve",
    setup(build) {
      build.onResolve(
        { filter: /^data:/ },
        (args) => ({ path: args.path, namespace: "frsh-data" }),
      );
      build.onLoad({ filter: /.*/, namespace: "frsh-data" }, (args) => {
        const comma = args.path.indexOf(",");
        return {
          contents: decodeURIComponent(args.path.slice(comma + 1)),
          loader: "ts",
          resolveDir: rootDir,
        };
      });
      build.onResolve({ filter: /^file:/ }, (args) => ({ path: fileURLToPath(args.path) }));
      build.onResolve({ filter: /^[^./]|^\.\.?\/$/ }, async (args) => {
        if (args.pluginData === "mapped" || args.path.startsWith("/")) return undefined;
        const mapped = mapSpecifier(args.path, importMap);
        if (mapped === args.path) return undefined;
        if (mapped.startsWith("/")) return { path: mapped };
        const result = await build.resolve(mapped, {
          kind: args.kind,
          resolveDir: args.resolveDir || rootDir,
          importer: args.importer,
          pluginData: "mapped",
        });
        return result.errors.length ? { errors: result.errors } : { path: result.path };
      });
    },
  };
}
