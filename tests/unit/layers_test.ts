/**
 * The layer rules, checked on the import graph (type-only imports included):
 * - code that reaches a browser (islands/, lib/client/ and everything they import) never imports
 *   a server module (KV, payments, e-mail, auth, the live hub, HTTP plumbing, routes);
 * - lib/domain imports nothing outside lib/domain (npm packages aside);
 * - the layers below the routes (the store's folders, lib/domain, lib/payments, lib/email, lib/auth,
 *   lib/live) never import lib/http or routes/: they throw domain errors, the routes speak HTTP;
 * - code outside lib/fresh uses the framework through its public modules only (`$fresh/server.ts`,
 *   `$fresh/runtime.ts`, `$fresh/dev.ts`, `$fresh/build.ts`, `$fresh/compress.ts`, plugins/), never
 *   `lib/fresh/src/`: a move to real Fresh then touches lib/fresh and the entry files alone;
 * - nothing imports upward: every module of the app sits in one layer of LAYER_ORDER and imports
 *   only from its own layer or the ones before it.
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

/**
 * The layers of the app, lowest first, as the import graph has them. A module may import its own
 * layer and the ones before it, never one after: a reader can then read the code bottom-up, and a
 * lower layer can be tested without the ones above. Each area is a folder (ending in "/") or a
 * file; the longest matching area decides, so lib/auth/records/ is store while lib/auth/ is a
 * feature service.
 */
const LAYER_ORDER: readonly { name: string; areas: readonly string[] }[] = [
  // Pure rules and shapes shared by server and browser; the framework core imports no app code.
  { name: "domain", areas: ["lib/domain/", "lib/fresh/"] },
  // Leaf helpers that know no record: configuration, telemetry, sealing, ids' randomness, and the
  // browser's own helpers (which the server may read, e.g. the prepaint scripts' hashes).
  {
    name: "foundation",
    areas: [
      "lib/config.ts",
      "lib/telemetry.ts",
      "lib/prng.ts",
      "lib/crypto/",
      "lib/net/",
      "lib/client/",
    ],
  },
  { name: "store", areas: ["lib/store/", "lib/db/", "lib/auth/records/"] },
  {
    name: "feature services",
    areas: [
      "lib/payments/",
      "lib/email/",
      "lib/notify/",
      "lib/feed/",
      "lib/imports/",
      "lib/live/",
      "lib/auth/",
    ],
  },
  // The JSON and link-preview views of records.
  { name: "api", areas: ["lib/api/", "lib/og/"] },
  {
    name: "http/app",
    areas: [
      "lib/http/",
      "lib/render_cache.ts",
      "lib/services.ts",
      "lib/app.ts",
      "lib/jobs.ts",
      "lib/startup.ts",
      "components/",
      "islands/",
    ],
  },
  {
    name: "routes",
    areas: [
      "routes/",
      "main.ts",
      "dev.ts",
      "serve.ts",
      "serve_isolate.ts",
      "fresh.config.ts",
      "fresh.gen.ts",
      "twind.config.ts",
    ],
  },
];

/**
 * Upward imports not yet undone, each with why it is still there. The list may only shrink: a
 * new upward import fails the test, and so does an entry here that no longer happens.
 */
const KNOWN_UPWARD: Record<string, string> = {
  "lib/db/award_reversal.ts → lib/email/prize_withdrawn.ts":
    "the withdrawal notice is built inside the commit that withdraws the awards, so the mail " +
    "exists exactly when the withdrawal does; the notice's builder has no home below the store yet",
  "lib/db/imports.ts → lib/imports/format.ts":
    "the import's rules still live beside its records in lib/db/imports.ts and read files " +
    "through the import feature's CSV/JSON format",
  "lib/db/self_exclusions.ts → lib/imports/format.ts":
    "a regulator's self-exclusion file is read as the imports read theirs, beside its records " +
    "(the same CSV reader, its rows refused whole)",
};

/** The layer index of `file`, by its longest matching area; -1 when no area holds it. */
function layerOf(file: string): number {
  let best = -1;
  let bestLength = -1;
  LAYER_ORDER.forEach((layer, index) => {
    for (const area of layer.areas) {
      const hit = area.endsWith("/") ? file.startsWith(area) : file === area;
      if (hit && area.length > bestLength) [best, bestLength] = [index, area.length];
    }
  });
  return best;
}

/** The app's modules the layer order covers: lib/, routes/, islands/, components/, entries. */
async function layeredFiles(): Promise<string[]> {
  const files = await filesWithEntries(["lib", "routes", "islands", "components"]);
  return files.filter((file) => !file.startsWith("lib/fresh/"));
}

Deno.test("[layers] every module of the app sits in one layer", async () => {
  const files = await layeredFiles();
  assert.ok(files.includes("lib/domain/types.ts") && files.includes("routes/index.tsx"));
  const unplaced = files.filter((file) => layerOf(file) < 0);
  assert.deepEqual(unplaced, [], "place each new folder or top-level file in LAYER_ORDER");
});

Deno.test("[layers] nothing imports upward", async () => {
  const upward: string[] = [];
  for (const file of await layeredFiles()) {
    const own = layerOf(file);
    for (const target of await importsOf(file)) {
      const theirs = layerOf(target);
      if (theirs > own) {
        upward.push(`${file} → ${target}`);
      }
    }
  }
  const unexpected = upward.filter((edge) => !(edge in KNOWN_UPWARD));
  assert.deepEqual(
    unexpected.map((edge) => {
      const [from, to] = edge.split(" → ");
      return `${edge} (${LAYER_ORDER[layerOf(from)].name} → ${LAYER_ORDER[layerOf(to)].name})`;
    }),
    [],
    "move the shared type or function down to a layer both sides see",
  );
  const gone = Object.keys(KNOWN_UPWARD).filter((edge) => !upward.includes(edge));
  assert.deepEqual(gone, [], "these upward imports are gone: drop them from KNOWN_UPWARD");
});

Deno.test("[layers] the layer check sees an upward import", () => {
  assert.equal(layerOf("lib/auth/records/admins.ts"), 2);
  assert.equal(layerOf("lib/auth/oidc.ts"), 3);
  assert.ok(layerOf("lib/db/outbox.ts") < layerOf("lib/email/mailer.ts"));
  assert.ok(layerOf("lib/api/leagues.ts") < layerOf("lib/services.ts"));
  assert.ok(layerOf("lib/client/admin/labels.ts") < layerOf("components/ui/Badge.tsx"));
  assert.ok(layerOf("lib/payments/payouts.ts") < layerOf("lib/api/views.ts"));
  assert.ok(layerOf("routes/index.tsx") > layerOf("lib/http/errors.ts"));
  assert.equal(layerOf("lib/unplaced_probe.ts"), -1);
});
