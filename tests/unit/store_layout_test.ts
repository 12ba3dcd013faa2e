/**
 * The store's split, checked on the import graph (type-only imports included; roles in
 * tests/helpers/store_layout.ts):
 * - the storage engine reaches no entity module and no auth record, through any chain of imports:
 *   it keeps records whatever they mean, so it can be read, tested and changed without them;
 * - the auth records stand on the engine alone: they reach no entity module and nothing of
 *   lib/auth above them;
 * - in the app (lib/, routes/, islands/, components/, scripts/, the entry files) the auth records
 *   are imported by lib/auth and the admin routes only: the rest of the app asks lib/auth.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { filesWithEntries, importsOf, ROOT } from "@/tests/helpers/import_graph.ts";
import {
  AUTH_RECORDS,
  authRecordModules,
  ENGINE,
  engineModules,
  entityModules,
} from "@/tests/helpers/store_layout.ts";

/** Where auth records may be imported from, tests aside. */
const AUTH_READERS = ["lib/auth/", "routes/admin/", "routes/api/admin/"];

/** Each module `roots` reaches through imports, with the chain that first reached it. */
async function reached(roots: string[]): Promise<Map<string, string[]>> {
  const chains = new Map<string, string[]>(roots.map((root) => [root, [root]]));
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of await importsOf(file)) {
      if (chains.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      queue.push(target);
    }
  }
  return chains;
}

/** The chains from `roots` to a module `forbidden` says no to, one per module reached. */
async function forbiddenChains(
  roots: string[],
  forbidden: (file: string) => boolean,
): Promise<string[]> {
  return [...(await reached(roots)).entries()]
    .filter(([file]) => forbidden(file))
    .map(([, chain]) => chain.join(" → "));
}

Deno.test("[store layout] every listed module exists, and each role has modules", async () => {
  const missing = [...ENGINE, ...AUTH_RECORDS].filter((file) => !existsSync(join(ROOT, file)));
  assert.deepEqual(missing, []);
  const [engine, auth, entities] = [
    await engineModules(),
    await authRecordModules(),
    await entityModules(),
  ];
  assert.ok(engine.some((file) => file.endsWith("/group_commit.ts")), "group commit: engine");
  assert.ok(auth.some((file) => file.endsWith("/sessions.ts")), "sessions: auth records");
  assert.ok(entities.some((file) => file.endsWith("/competitions.ts")), "competitions: entity");
  const shared = engine.filter((file) => auth.includes(file) || entities.includes(file));
  assert.deepEqual(shared, [], "a module has one role");
});

Deno.test("[store layout] the engine reaches no entity module and no auth record", async () => {
  const engine = await engineModules();
  const other = new Set([...await entityModules(), ...await authRecordModules()]);
  const bad = await forbiddenChains(engine, (file) => other.has(file));
  assert.deepEqual(bad, [], `the engine depends on what it stores:\n${bad.join("\n")}`);
});

Deno.test("[store layout] the auth records stand on the engine alone", async () => {
  const auth = await authRecordModules();
  const entities = new Set(await entityModules());
  const above = (file: string) => file.startsWith("lib/auth/") && !auth.includes(file);
  const bad = await forbiddenChains(auth, (file) => entities.has(file) || above(file));
  assert.deepEqual(bad, [], `auth records reach entities or lib/auth:\n${bad.join("\n")}`);
});

Deno.test("[store layout] the app reads the auth records through lib/auth and admin routes", async () => {
  const auth = new Set(await authRecordModules());
  const files = await filesWithEntries(["lib", "routes", "islands", "components", "scripts"]);
  const bad: string[] = [];
  for (const file of files) {
    if (auth.has(file) || AUTH_READERS.some((area) => file.startsWith(area))) continue;
    for (const target of await importsOf(file)) {
      if (auth.has(target)) bad.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(bad, [], `auth records read outside lib/auth:\n${bad.join("\n")}`);
});
