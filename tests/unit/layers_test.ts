/**
 * The layer rules, checked on the import graph (type-only imports included):
 * - code that reaches a browser (islands/, lib/client/ and everything they import) never imports
 *   a server module (KV, payments, e-mail, auth, the live hub, HTTP plumbing, routes);
 * - lib/domain imports nothing outside lib/domain (npm packages aside);
 * - the layers below the routes (the store's folders, lib/domain, lib/payments, lib/email, lib/auth,
 *   lib/live) never import lib/http or routes/: they throw domain errors, the routes speak HTTP;
 * - code outside lib/fresh uses the framework through its public modules only (`$fresh/server.ts`,
 *   `$fresh/runtime.ts`, `$fresh/dev.ts`, `$fresh/build.ts`, `$fresh/compress.ts`, plugins/), never
 *   `lib/fresh/src/`: a move to real Fresh then touches lib/fresh and the entry files alone.
 */
import assert from "node:assert/strict";
import {
  filesUnder,
  filesWithEntries,
  importsOf,
  parseImports,
} from "@/tests/helpers/import_graph.ts";
import { storeFolders } from "@/tests/helpers/store_layout.ts";

/** The store's folders (entities, storage engine, auth records), as areas. */
const STORE = storeFolders().map((folder) => `${folder}/`);

/** Server-only areas: a browser module importing one of these is a layering bug. */
const SERVER = [
  ...STORE,
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
  ...STORE,
  "lib/domain/",
  "lib/payments/",
  "lib/email/",
  "lib/auth/",
  "lib/live/",
];

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

/** A public module of lib/fresh: one at its top level or a plugin, nothing under src/. */
const isFreshPublic = (file: string) => /^lib\/fresh\/(plugins\/)?[\w.-]+\.tsx?$/.test(file);

Deno.test("[layers] code outside lib/fresh imports only the framework's public modules", async () => {
  const files = await filesWithEntries(
    ["lib", "routes", "islands", "components", "scripts", "bench", "tests"],
  );
  // tests/unit/fresh tests the core itself (its internals included).
  const outside = files.filter((file) => !isIn(file, ["lib/fresh/", "tests/unit/fresh/"]));
  assert.ok(outside.includes("lib/app.ts") && outside.includes("main.ts"));
  const bad: string[] = [];
  for (const file of outside) {
    for (const target of await importsOf(file)) {
      if (target.startsWith("lib/fresh/") && !isFreshPublic(target)) {
        bad.push(`${file} → ${target}`);
      }
    }
  }
  assert.deepEqual(bad, [], `framework internals imported:\n${bad.join("\n")}`);
  assert.ok(isFreshPublic("lib/fresh/server.ts") && isFreshPublic("lib/fresh/plugins/twind.ts"));
  assert.ok(!isFreshPublic("lib/fresh/src/compress.ts"));
});

Deno.test("[layers] the graph reader sees every import form", () => {
  const source = [
    'import type { A } from "./types.ts";',
    "import {",
    "  b,",
    '} from "@/lib/db/entries.ts";',
    'export { c } from "../http/errors.ts";',
    'import "./side_effect.ts";',
    'const d = await import("$fresh/server.ts");',
    'import * as z from "zod/mini";',
    '/** @example import { x } from "../../routes/index.tsx"; */',
  ].join("\n");
  assert.deepEqual(parseImports(source, "lib/domain/probe.ts"), [
    "lib/db/entries.ts",
    "lib/domain/side_effect.ts",
    "lib/domain/types.ts",
    "lib/fresh/server.ts",
    "lib/http/errors.ts",
  ]);
});
