/**
 * The layer rules, checked on the import graph (type-only imports included):
 * - code that reaches a browser (islands/, lib/client/ and everything they import) never imports
 *   a server module (KV, payments, e-mail, auth, the live hub, HTTP plumbing, routes);
 * - lib/domain imports nothing outside lib/domain (npm packages aside);
 * - the layers below the routes (lib/db, lib/domain, lib/payments, lib/email, lib/auth, lib/live)
 *   never import lib/http or routes/: they throw domain errors, the routes speak HTTP.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = normalize(fileURLToPath(new URL("../../", import.meta.url)));
const IMPORT_MAP: Record<string, string> = JSON.parse(
  await Deno.readTextFile(join(ROOT, "deno.json")),
).imports;

/** Server-only areas: a browser module importing one of these is a layering bug. */
const SERVER = [
  "lib/db/",
  "lib/payments/",
  "lib/email/",
  "lib/auth/",
  "lib/live/",
  "lib/http/",
  "lib/api/",
  "lib/services.ts",
  "lib/app.ts",
  "lib/config.ts",
  "routes/",
  "main.ts",
];
const BELOW_ROUTES = [
  "lib/db/",
  "lib/domain/",
  "lib/payments/",
  "lib/email/",
  "lib/auth/",
  "lib/live/",
];

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

/** The local modules that `source`, the text of `file`, imports. */
function parseImports(source: string, file: string): string[] {
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

/** The local modules `file` imports. */
async function importsOf(file: string): Promise<string[]> {
  let imports = importsCache.get(file);
  if (!imports) {
    imports = parseImports(await Deno.readTextFile(join(ROOT, file)), file);
    importsCache.set(file, imports);
  }
  return imports;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

const isIn = (file: string, areas: string[]) => areas.some((area) => file.startsWith(area));

/** Every module reachable from `roots`, with the import chain that first reached it. */
async function reachable(roots: string[]): Promise<Map<string, string[]>> {
  const chains = new Map<string, string[]>(roots.map((root) => [root, [root]]));
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (isIn(file, SERVER)) continue; // reported, not followed
    for (const target of await importsOf(file)) {
      if (chains.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      queue.push(target);
    }
  }
  return chains;
}

Deno.test("[layers] browser code never imports a server module", async () => {
  const roots = [...await filesUnder("islands"), ...await filesUnder("lib/client")];
  assert.ok(roots.length > 20, "islands and lib/client hold the browser modules");
  const chains = await reachable(roots);
  const bad = [...chains.entries()].filter(([file]) => isIn(file, SERVER))
    .map(([, chain]) => chain.join(" → "));
  assert.deepEqual(bad, [], `browser modules reach server modules:\n${bad.join("\n")}`);
});

Deno.test("[layers] lib/domain imports nothing outside lib/domain", async () => {
  const bad: string[] = [];
  for (const file of await filesUnder("lib/domain")) {
    for (const target of await importsOf(file)) {
      if (!target.startsWith("lib/domain/")) bad.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

Deno.test("[layers] the layers below the routes never import lib/http or routes/", async () => {
  const bad: string[] = [];
  for (const area of BELOW_ROUTES) {
    for (const file of await filesUnder(area.slice(0, -1))) {
      for (const target of await importsOf(file)) {
        if (isIn(target, ["lib/http/", "routes/"])) bad.push(`${file} → ${target}`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

Deno.test("[layers] the graph reader sees every import form", () => {
  const source = [
    'import type { A } from "./types.ts";',
    "import {",
    "  b,",
    '} from "@/lib/db/keys.ts";',
    'export { c } from "../http/errors.ts";',
    'import "./side_effect.ts";',
    'const d = await import("$fresh/server.ts");',
    'import * as z from "zod/mini";',
    '/** @example import { x } from "../../routes/index.tsx"; */',
  ].join("\n");
  assert.deepEqual(parseImports(source, "lib/domain/probe.ts"), [
    "lib/db/keys.ts",
    "lib/domain/side_effect.ts",
    "lib/domain/types.ts",
    "lib/fresh/server.ts",
    "lib/http/errors.ts",
  ]);
});
