/**
 * The layer rules, checked on the import graph (type-only imports included):
 * - code that reaches a browser (islands/, lib/client/ and everything they import) never imports
 *   a server module (KV, payments, e-mail, auth, the live hub, HTTP plumbing, routes);
 * - lib/domain imports nothing outside lib/domain (npm packages aside);
 * - the layers below the routes (lib/db, lib/domain, lib/payments, lib/email, lib/auth, lib/live)
 *   never import lib/http or routes/: they throw domain errors, the routes speak HTTP.
 */
import assert from "node:assert/strict";
import { filesUnder, importsOf, parseImports } from "@/tests/helpers/import_graph.ts";

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
