/**
 * The write functions of the store, found from the sources rather than listed by hand: every
 * module of every store folder (the entities', the storage engine's and the auth records', see
 * tests/helpers/store_layout.ts) is read, split into its top-level declarations, and a
 * declaration writes when its text opens an atomic, commits, or calls the store's
 * set/delete/enqueue, or calls (by name) another declaration of the store that writes. The
 * exported ones are returned as `module.function` (`competition_players.ts` →
 * `competitionPlayers`), each checked to be a real export of its module, so a new module, folder
 * member or function cannot be missed.
 */
import { join } from "node:path";
import { ROOT } from "@/tests/helpers/import_graph.ts";
import { storeFolders } from "@/tests/helpers/store_layout.ts";
const WRITES = /\.atomic\(|\.commit\(|\b(?:kv|store|target)\.(?:set|delete|enqueue)\(/;
const DECLARATION =
  /^(export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?\s+(\w+)|(?:const|let)\s+(\w+)\s*[:=]|class\s+(\w+))/;

interface Declaration {
  module: string;
  name: string;
  exported: boolean;
  text: string;
}

/** `competition_players.ts` → `competitionPlayers`. */
function moduleName(file: string): string {
  return file.replace(/\.ts$/, "").replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
}

/** The top-level declarations of `source`, each with its text up to the next one. */
function declarationsOf(module: string, source: string): Declaration[] {
  const out: Declaration[] = [];
  let current: Declaration | null = null;
  for (const line of source.split("\n")) {
    const match = DECLARATION.exec(line);
    if (match) {
      current = {
        module,
        name: match[2] ?? match[3] ?? match[4],
        exported: match[1] !== undefined,
        text: "",
      };
      out.push(current);
    }
    if (current) current.text += line + "\n";
  }
  return out;
}

/**
 * Every exported function (or class) of the store's modules that can write, as `module.name`,
 * sorted.
 */
export async function libDbWriters(): Promise<string[]> {
  const declarations: Declaration[] = [];
  const exportsOf = new Map<string, Record<string, unknown>>();
  for (const folder of storeFolders()) {
    for await (const entry of Deno.readDir(join(ROOT, folder))) {
      if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
      const module = moduleName(entry.name);
      if (exportsOf.has(module)) throw new Error(`two store modules are named ${module}`);
      const path = join(ROOT, folder, entry.name);
      declarations.push(...declarationsOf(module, await Deno.readTextFile(path)));
      exportsOf.set(module, await import(`file://${path}`));
    }
  }
  const writers = new Set(declarations.filter((d) => WRITES.test(d.text)));
  for (let grew = true; grew;) {
    grew = false;
    const names = new Set([...writers].map((d) => d.name));
    for (const d of declarations) {
      if (writers.has(d)) continue;
      const calls = [...d.text.matchAll(/\b(\w+)\(/g)].map((m) => m[1]);
      if (calls.some((name) => name !== d.name && names.has(name))) {
        writers.add(d);
        grew = true;
      }
    }
  }
  const found = [...writers].filter((d) => d.exported);
  for (const d of found) {
    if (typeof exportsOf.get(d.module)?.[d.name] !== "function") {
      throw new Error(`${d.module}.${d.name} was read as an exported function and is none`);
    }
  }
  return found.map((d) => `${d.module}.${d.name}`).sort();
}
