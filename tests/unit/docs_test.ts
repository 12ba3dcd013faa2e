/**
 * The documents stay true to the repository: every relative link resolves to a file (and its
 * `#anchor` to a heading there), every variable lib/config.ts reads is in the configuration table
 * of docs/operations.md, the README's tree names every entry of the folders it maps, no document
 * carries the date of a run, and every `.md` file the code cites exists.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { filesUnder, ROOT } from "@/tests/helpers/import_graph.ts";

/** The documents a reader opens: the README, docs/ and the folders' own READMEs. */
async function documents(): Promise<string[]> {
  const docs = ["README.md", "tests/README.md", "bench/README.md", "lib/fresh/README.md"];
  for await (const entry of Deno.readDir(join(ROOT, "docs"))) {
    if (entry.isFile && entry.name.endsWith(".md")) docs.push(`docs/${entry.name}`);
  }
  return docs.sort();
}

const read = (file: string) => Deno.readTextFile(join(ROOT, file));

/** The text outside fenced code blocks (links and headings there are not markdown). */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of the headings of a markdown text. */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of prose(text).matchAll(/^#{1,6}\s+(.+)$/gm)) found.add(slug(match[1]));
  return found;
}

/** Relative links `[text](target)` of a markdown text (web links and mail links left out). */
function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const match of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (!/^[a-z]+:/i.test(match[1])) links.push(match[1]);
  }
  return links;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(join(ROOT, path));
    return true;
  } catch {
    return false;
  }
}

Deno.test("[docs] every relative link resolves to a file and a heading", async () => {
  const dead: string[] = [];
  let checked = 0;
  for (const doc of await documents()) {
    for (const link of relativeLinks(await read(doc))) {
      checked++;
      const [path, anchor] = link.split("#");
      const target = path === "" ? doc : normalize(join(dirname(doc), path));
      if (target.startsWith("..") || !(await exists(target))) {
        dead.push(`${doc}: ${link} (no file ${target})`);
        continue;
      }
      if (anchor && target.endsWith(".md") && !anchors(await read(target)).has(anchor)) {
        dead.push(`${doc}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
  }
  assert.ok(checked > 20, "the documents link to each other");
  assert.deepEqual(dead, []);
});

/** The environment variables lib/config.ts reads. */
async function configVariables(): Promise<string[]> {
  const source = await read("lib/config.ts");
  const names = new Set<string>();
  for (const match of source.matchAll(/"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|PORT|HOST)"/g)) {
    names.add(match[1]);
  }
  for (const match of source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(match[1]);
  return [...names].sort();
}

Deno.test("[docs] every variable lib/config.ts reads is in the configuration table", async () => {
  const variables = await configVariables();
  assert.ok(variables.includes("DENO_KV_PATH") && variables.includes("ADMIN_PASSWORD"));
  const text = await read("docs/operations.md");
  const section = text.slice(text.indexOf("## Configuration"));
  const table = section.split("\n").filter((line) => line.startsWith("|")).join("\n");
  const missing = variables.filter((name) => !table.includes(`\`${name}\``));
  assert.deepEqual(missing, [], "add a row to docs/operations.md's configuration table");
});

/** What the README's tree may call an entry: its name, or its name without the extension. */
function spellings(name: string): string[] {
  const stem = name.replace(/\.(tsx?|mjs|sh|md)$/, "");
  return [name, stem, stem.replace(/_bench$/, "")];
}

Deno.test("[docs] the README's tree names every entry of the folders it maps", async () => {
  const readme = await read("README.md");
  const tree = readme.slice(readme.indexOf("## The tree"), readme.indexOf("## Where to start"));
  const words = new Set(tree.split(/[\s,()+·]+/).map((word) => word.replace(/\/$/, "")));
  const unnamed: string[] = [];
  for (const folder of ["lib", "routes", "islands", "tests", "scripts", "bench"]) {
    for await (const entry of Deno.readDir(join(ROOT, folder))) {
      if (entry.name.startsWith(".") || entry.name === "README.md") continue;
      if (!spellings(entry.name).some((name) => words.has(name))) {
        unnamed.push(`${folder}/${entry.name}`);
      }
    }
  }
  assert.deepEqual(unnamed.sort(), [], "name each new entry in the README's tree");
});

Deno.test("[docs] no document carries the date of a run", async () => {
  const dated: string[] = [];
  for (const doc of await documents()) {
    for (const [n, line] of (await read(doc)).split("\n").entries()) {
      if (/\b20\d\d-\d\d-\d\d\b/.test(line)) dated.push(`${doc}:${n + 1}`);
    }
  }
  assert.deepEqual(dated, []);
});

Deno.test("[docs] every .md file the code cites exists", async () => {
  const missing: string[] = [];
  for (const folder of ["lib", "routes", "islands", "components", "scripts", "bench"]) {
    for (const file of await filesUnder(folder)) {
      for (const match of (await read(file)).matchAll(/[\w./-]+\.md\b/g)) {
        const cited = match[0];
        const candidates = [cited, relative(ROOT, join(ROOT, dirname(file), cited))];
        if (!(await Promise.all(candidates.map(exists))).some(Boolean)) {
          missing.push(`${file}: ${cited}`);
        }
      }
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("[docs] anchors follow GitHub's headings", () => {
  assert.equal(slug("lib/fresh and Fresh 1.7"), "libfresh-and-fresh-17");
  assert.equal(
    slug("What a visitor receives (`deno task bench wire`)"),
    "what-a-visitor-receives-deno-task-bench-wire",
  );
  assert.equal(
    slug("Installable, and the last leaderboard offline"),
    "installable-and-the-last-leaderboard-offline",
  );
  assert.deepEqual(relativeLinks("[a](docs/x.md#y) [b](https://x.y)\n```\n[c](z)\n```"), [
    "docs/x.md#y",
  ]);
});
