/**
 * Chunk folding: esbuild's code splitting makes one chunk per set of entries that share code, so
 * a page ends up loading many tiny chunks (a 200-byte one costs as much in headers as it holds,
 * and compresses worse alone). Folding moves the modules of a small chunk into the closest bigger
 * chunk whose entries include all of its own: the entries that lacked them reference them (a
 * namespace import in the page entry, or in a wrapper of a lazily imported module), so esbuild
 * puts them in that chunk on the next build. A page then loads a few more bytes it may not run,
 * and far fewer files.
 */
import type * as esbuild from "esbuild";
import { dirname, join, relative, sep } from "node:path";

/** Chunks smaller than this (bytes, minified) are folded into a bigger one when it pays. */
export const FOLD_BYTES = 4096;
/** What one more file costs a page: response headers and its own compression overhead. */
const FILE_COST = 300;
/** About how much of a minified chunk remains after brotli. */
const COMPRESSED = 0.4;

/** Whether `entry` (`page:<group>`, `lazy:…`) is the page of a group matching `apart`. */
function apartEntry(entry: string | null, apart: RegExp | undefined): boolean {
  return !!apart && !!entry?.startsWith("page:") && apart.test(entry.slice(5));
}

/** Modules each entry must reference: `page:<group>` or `lazy:<absolute path>` → module paths. */
export interface Folds {
  refs: Map<string, Set<string>>;
  /** Lazily imported modules (absolute paths) that have a default export. */
  lazyDefaults: Set<string>;
}

export function emptyFolds(): Folds {
  return { refs: new Map(), lazyDefaults: new Set() };
}

const LAZY_NS = "frsh-lazy";
const PAGE_PREFIX = "frsh-page:";

interface Output {
  file: string;
  bytes: number;
  /** The entry key, for entries that folding can add references to. */
  entry: string | null;
  /** Whether it is an entry (of any kind). */
  isEntry: boolean;
  imports: string[];
  modules: string[];
}

/**
 * Adds to `folds` what a build's metafile shows can be folded; returns whether it added any (then
 * build again). `rootDir` is esbuild's working directory, which metafile paths are relative to.
 */
export function planFolds(
  metafile: esbuild.Metafile,
  rootDir: string,
  folds: Folds,
  apart?: RegExp,
): boolean {
  const outputs = new Map<string, Output>();
  for (const [file, out] of Object.entries(metafile.outputs)) {
    if (!file.endsWith(".js")) continue;
    const entry = entryKey(out.entryPoint, rootDir);
    if (entry?.startsWith("lazy:") && out.exports.includes("default")) {
      folds.lazyDefaults.add(entry.slice(5));
    }
    outputs.set(file, {
      file,
      bytes: out.bytes,
      entry,
      isEntry: out.entryPoint !== undefined,
      imports: out.imports.filter((i) => i.kind === "import-statement").map((i) => i.path),
      modules: Object.keys(out.inputs).filter((input) => !input.startsWith("<"))
        .map((input) => moduleOf(input, rootDir)).filter((m): m is string => m !== null),
    });
  }
  // Which entries load each chunk (static imports followed).
  const loadedBy = new Map<string, Set<string>>();
  for (const out of outputs.values()) {
    if (!out.isEntry) continue;
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      loadedBy.get(file)?.add(out.file) ?? loadedBy.set(file, new Set([out.file]));
      outputs.get(file)?.imports.forEach(visit);
    };
    out.imports.forEach(visit);
  }
  const chunks = [...outputs.values()].filter((o) => !o.isEntry && loadedBy.has(o.file));
  let added = false;
  for (const small of chunks) {
    if (small.bytes >= FOLD_BYTES || small.modules.length === 0) continue;
    const own = loadedBy.get(small.file)!;
    // Code of the pages kept apart only (e.g. admin pages) is never folded onto another page.
    const isApart = (file: string) => apartEntry(outputs.get(file)!.entry, apart);
    const ownApart = [...own].every(isApart);
    const target = chunks
      .filter((c) =>
        c !== small && c.bytes >= small.bytes && includesAll(loadedBy.get(c.file)!, own)
      )
      .filter((c) => [...loadedBy.get(c.file)!].every((e) => own.has(e) || outputs.get(e)!.entry))
      .filter((c) => !ownApart || [...loadedBy.get(c.file)!].every((e) => own.has(e) || isApart(e)))
      .sort((a, b) =>
        loadedBy.get(a.file)!.size - loadedBy.get(b.file)!.size || b.bytes - a.bytes
      )[0];
    if (!target) continue;
    // Worth it when the entries that load it save more in files than the others pay in bytes.
    const extra = loadedBy.get(target.file)!.size - own.size;
    if (extra * small.bytes * COMPRESSED >= own.size * FILE_COST) continue;
    for (const entryFile of loadedBy.get(target.file)!) {
      if (own.has(entryFile)) continue;
      const key = outputs.get(entryFile)!.entry!;
      const refs = folds.refs.get(key) ?? new Set();
      folds.refs.set(key, refs);
      for (const module of small.modules) {
        if (!refs.has(module)) added = true;
        refs.add(module);
      }
    }
  }
  return added;
}

function includesAll(set: Set<string>, subset: Set<string>): boolean {
  for (const item of subset) if (!set.has(item)) return false;
  return true;
}

/** `page:<group>` for a page entry, `lazy:<path>` for a lazily imported app module, else null. */
function entryKey(entryPoint: string | undefined, rootDir: string): string | null {
  if (!entryPoint) return null;
  if (entryPoint.startsWith(PAGE_PREFIX)) return `page:${entryPoint.slice(PAGE_PREFIX.length)}`;
  const module = moduleOf(entryPoint, rootDir);
  return module ? `lazy:${module}` : null;
}

/** The absolute path of a metafile input that is a file (null for virtual modules). */
function moduleOf(input: string, rootDir: string): string | null {
  if (input.startsWith(`${LAZY_NS}:`)) return input.slice(LAZY_NS.length + 1);
  if (/^[\w-]+:/.test(input)) return null;
  return join(rootDir, input);
}

/**
 * Source lines that make an entry reference `modules`: re-exports keep their exports alive (a
 * namespace import would too, but its helper would be one more tiny shared chunk).
 */
export function referenceSource(modules: Iterable<string>): string {
  return [...modules].sort().map((m) => `export * from ${JSON.stringify(m)};\n`).join("");
}

/**
 * Lazily imported modules that must reference folded modules are imported through a wrapper that
 * re-exports them and adds the references.
 */
export function foldPlugin(folds: Folds): esbuild.Plugin {
  return {
    name: "fresh-fold",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === LAZY_NS) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: LAZY_NS,
        });
        if (resolved.errors.length > 0 || !folds.refs.has(`lazy:${resolved.path}`)) {
          return undefined; // resolved as usual
        }
        return { path: resolved.path, namespace: LAZY_NS };
      });
      build.onLoad({ filter: /.*/, namespace: LAZY_NS }, (args) => {
        const target = JSON.stringify(args.path);
        const reexport = folds.lazyDefaults.has(args.path)
          ? `export * from ${target};\nexport { default } from ${target};\n`
          : `export * from ${target};\n`;
        return {
          contents: reexport + referenceSource(folds.refs.get(`lazy:${args.path}`) ?? []),
          loader: "js",
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/** The module a lazy wrapper stands for, as a metafile input path; null for other inputs. */
export function lazyTarget(input: string, rootDir: string): string | null {
  if (!input.startsWith(`${LAZY_NS}:`)) return null;
  return relative(rootDir, input.slice(LAZY_NS.length + 1)).split(sep).join("/");
}
