/**
 * The project's import graph as the architecture tests read it: every local module a file
 * imports (type-only imports, re-exports and dynamic imports with a literal specifier included),
 * resolved through deno.json's import map; npm packages left out.
 */
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, with a trailing separator. */
export const ROOT = normalize(fileURLToPath(new URL("../../", import.meta.url)));
const IMPORT_MAP: Record<string, string> = JSON.parse(
  await Deno.readTextFile(join(ROOT, "deno.json")),
).imports;

const SPECIFIERS = [
  /(?:^|\n)[ \t]*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/g,
  /(?:^|\n)[ \t]*import\s*["']([^"']+)["']/g,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
];

/** Repo-relative path of a local module `specifier` imported by `from`; null for packages. */
function resolve(specifier: string, from: string): string | null {
  let target = specifier;
  const prefix = Object.keys(IMPORT_MAP)
    .filter((key) => key.endsWith("/") && specifier.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix && IMPORT_MAP[prefix].startsWith(".")) {
    target = join(ROOT, IMPORT_MAP[prefix], specifier.slice(prefix.length));
  } else if (specifier.startsWith(".")) {
    target = join(ROOT, dirname(from), specifier);
  } else {
    return null;
  }
  return relative(ROOT, target);
}

/** The local modules that `source`, the text of `file`, imports, sorted. */
export function parseImports(source: string, file: string): string[] {
  const found = new Set<string>();
  for (const pattern of SPECIFIERS) {
    for (const match of source.matchAll(pattern)) {
      const target = resolve(match[1], file);
      if (target) found.add(target);
    }
  }
  return [...found].sort();
}

const importsCache = new Map<string, string[]>();

/** The local modules `file` (repo-relative) imports. */
export async function importsOf(file: string): Promise<string[]> {
  let imports = importsCache.get(file);
  if (!imports) {
    imports = parseImports(await Deno.readTextFile(join(ROOT, file)), file);
    importsCache.set(file, imports);
  }
  return imports;
}

/** Every .ts/.tsx file under `dir` (repo-relative), sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** The .ts/.tsx files under each of `dirs` and at the repository root (main.ts, …), sorted. */
export async function filesWithEntries(dirs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const dir of dirs) files.push(...await filesUnder(dir));
  for await (const entry of Deno.readDir(ROOT)) {
    if (entry.isFile && /\.tsx?$/.test(entry.name)) files.push(entry.name);
  }
  return files.sort();
}
