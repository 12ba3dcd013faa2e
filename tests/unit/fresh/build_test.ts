import assert from "node:assert/strict";
import { join } from "node:path";
import { build } from "$fresh/dev.ts";
import { fetchText, fixtureConfig, fixtureHandler } from "./helpers.ts";

const MANIFEST_URL = new URL("../../fixtures/fresh_app/fresh.gen.ts", import.meta.url).href;

interface Snapshot {
  buildId: string;
  groups: { name: string; islands: string[]; file: string }[];
  entrypoints: Record<string, string>;
  deps: Record<string, string[]>;
  islandInputs: Record<string, string[]>;
  inputs: string[];
  inputsHash: string;
  pluginData: Record<string, unknown>;
}

async function buildTo(outDir: string): Promise<Snapshot> {
  const log = console.log;
  console.log = () => {};
  try {
    await build(MANIFEST_URL, { ...fixtureConfig, build: { outDir } });
  } finally {
    console.log = log;
  }
  return JSON.parse(await Deno.readTextFile(join(outDir, "snapshot.json")));
}

Deno.test("[fresh] production build", async (t) => {
  const outDir = await Deno.makeTempDir({ prefix: "fresh_build_" });
  try {
    const snapshot = await buildTo(outDir);
    const files = (await Array.fromAsync(Deno.readDir(join(outDir, "js")))).map((e) => e.name);
    const read = (file: string) => Deno.readTextFile(join(outDir, "js", file));

    await t.step("writes a snapshot: BUILD_ID, one hashed entry per page group", () => {
      assert.match(snapshot.buildId, /^[0-9a-f]{16}$/);
      assert.deepEqual(snapshot.groups.map(({ name, islands }) => [name, islands]), [
        ["one", ["Counter"]],
        ["islands", ["Counter", "Echo"]],
        ["nested", ["Counter", "Echo", "Outer"]],
      ]);
      for (const { file } of snapshot.groups) {
        assert.match(file, /^page-[a-z]+-[A-Z0-9]{8}\.js$/);
        assert.ok(files.includes(file), file);
      }
      assert.deepEqual(snapshot.entrypoints, {}, "no plugin ships a browser script");
    });

    await t.step("keeps what plugins prepare at build (twind: the islands' classes)", () => {
      const tokens = snapshot.pluginData.twind as Record<string, string[]>;
      assert.deepEqual(Object.keys(tokens).sort(), ["Counter", "Echo", "Outer"]);
      assert.ok(tokens.Counter.every((token) => typeof token === "string"));
    });

    await t.step("writes brotli and gzip variants of the chunks", () => {
      const big = Object.keys(snapshot.deps).filter((f) => files.includes(`${f}.br`));
      assert.ok(big.length > 0);
      for (const file of big) assert.ok(files.includes(`${file}.gz`), file);
    });

    await t.step("records the source files of each island, without dependencies", () => {
      assert.deepEqual(snapshot.islandInputs.Counter, ["islands/Counter.tsx"]);
      assert.ok(snapshot.islandInputs.Outer.includes("islands/Outer.tsx"));
    });

    await t.step("two islands on a page share one preact copy", async () => {
      const withPreact: string[] = [];
      for (const file of files.filter((f) => f.endsWith(".js"))) {
        if ((await read(file)).includes("http://www.w3.org/2000/svg")) withPreact.push(file);
      }
      assert.equal(withPreact.length, 1, `preact found in ${withPreact.join(", ")}`);
      const reaches = (file: string, seen = new Set<string>()): Set<string> => {
        for (const dep of snapshot.deps[file] ?? []) {
          if (!seen.has(dep)) reaches(dep, seen.add(dep));
        }
        return seen;
      };
      for (const { file } of snapshot.groups) assert.ok(reaches(file).has(withPreact[0]), file);
    });

    await t.step("the chunks are minified ES modules", async () => {
      const entry = await read(snapshot.groups[0].file);
      assert.match(entry, /^import\{/);
      assert.equal(entry.split("\n").filter(Boolean).length, 1);
    });

    await t.step("the same sources give the same BUILD_ID", async () => {
      const again = await Deno.makeTempDir({ prefix: "fresh_build_" });
      try {
        assert.equal((await buildTo(again)).buildId, snapshot.buildId);
      } finally {
        await Deno.remove(again, { recursive: true });
      }
    });

    await t.step("createHandler serves the snapshot without bundling again", async () => {
      // A marker that only the snapshot on disk contains proves it is served as is.
      const counter = join(outDir, "js", snapshot.groups[0].file);
      await Deno.writeTextFile(counter, "/*from-snapshot*/", { append: true });
      await Deno.remove(`${counter}.br`).catch(() => {});
      await Deno.remove(`${counter}.gz`).catch(() => {});
      const handler = await fixtureHandler({ build: { outDir } });
      const page = await fetchText(handler, "/one");
      assert.match(page.text, new RegExp(`"buildId":"${snapshot.buildId}"`));
      const chunk = await fetchText(
        handler,
        `/_frsh/js/${snapshot.buildId}/${snapshot.groups[0].file}`,
      );
      assert.equal(chunk.status, 200);
      assert.ok(chunk.text.endsWith("/*from-snapshot*/"));
    });

    await t.step("a snapshot whose sources changed is not served", async () => {
      const inputs = snapshot.inputs.filter((path) => path.includes("islands/"));
      assert.deepEqual(inputs.sort(), [
        "islands/Counter.tsx",
        "islands/Echo.tsx",
        "islands/Outer.tsx",
      ]);
      const stale = { ...snapshot, inputsHash: "0".repeat(16) };
      await Deno.writeTextFile(join(outDir, "snapshot.json"), JSON.stringify(stale));
      const warnings: unknown[] = [];
      const warn = console.warn;
      console.warn = (...args: unknown[]) => warnings.push(args);
      try {
        const handler = await fixtureHandler({ build: { outDir } });
        const url = `/_frsh/js/${snapshot.buildId}/${snapshot.groups[0].file}`;
        const chunk = await fetchText(handler, url);
        assert.equal(chunk.status, 200, "same sources, same BUILD_ID");
        assert.ok(!chunk.text.includes("/*from-snapshot*/"), "bundled afresh");
      } finally {
        console.warn = warn;
      }
      assert.equal(warnings.length, 1);
    });

    await t.step("dev mode ignores the snapshot and bundles in memory", async () => {
      const handler = await fixtureHandler({ dev: true, build: { outDir } });
      const page = await fetchText(handler, "/one");
      assert.doesNotMatch(page.text, new RegExp(snapshot.buildId));
    });
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});
