import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateManifest } from "@/lib/fresh/src/manifest.ts";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FIXTURE_ROOT = join(REPO_ROOT, "tests/fixtures/fresh_app");

async function denoFmt(source: string): Promise<string> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--line-width=100", "--ext=ts", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  });
  const child = cmd.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(source));
  await writer.close();
  const out = await child.output();
  return new TextDecoder().decode(out.stdout);
}

async function writeFiles(root: string, files: string[]): Promise<void> {
  for (const file of files) {
    const path = join(root, file);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, "export default () => null;\n");
  }
}

Deno.test("[fresh] fresh.gen.ts", async (t) => {
  await t.step("the repository's fresh.gen.ts is up to date", async () => {
    const expected = await generateManifest(REPO_ROOT);
    assert.equal(await Deno.readTextFile(join(REPO_ROOT, "fresh.gen.ts")), expected);
  });

  await t.step("the fixture's fresh.gen.ts is up to date", async () => {
    const expected = await generateManifest(FIXTURE_ROOT);
    assert.equal(await Deno.readTextFile(join(FIXTURE_ROOT, "fresh.gen.ts")), expected);
  });

  await t.step("is sorted, skips private and test files, and is deno-fmt clean", async () => {
    const root = await Deno.makeTempDir({ prefix: "fresh_gen_" });
    try {
      await writeFiles(root, [
        "routes/index.tsx",
        "routes/_app.tsx",
        "routes/b/[id].tsx",
        "routes/a.ts",
        "routes/(group)/_layout.tsx",
        "routes/(group)/page.tsx",
        "routes/(_components)/Thing.tsx",
        "routes/_helpers/x.ts",
        "routes/_private.ts",
        "routes/a_test.ts",
        "routes/.hidden.ts",
        "routes/notes.md",
        "islands/Zed.tsx",
        "islands/Alpha.tsx",
      ]);
      const source = await generateManifest(root);
      const keys = [...source.matchAll(/^ {4}"([^"]+)": \$+\d+,$/gm)].map((m) => m[1]);
      assert.deepEqual(keys, [
        "./routes/(group)/_layout.tsx",
        "./routes/(group)/page.tsx",
        "./routes/_app.tsx",
        "./routes/a.ts",
        "./routes/b/[id].tsx",
        "./routes/index.tsx",
        "./islands/Alpha.tsx",
        "./islands/Zed.tsx",
      ]);
      assert.equal(await generateManifest(root), source, "deterministic");
      assert.equal(await denoFmt(source), source);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });

  await t.step("an app without islands gets an empty islands map", async () => {
    const root = await Deno.makeTempDir({ prefix: "fresh_gen_" });
    try {
      await writeFiles(root, ["routes/index.tsx"]);
      const source = await generateManifest(root);
      assert.match(source, /\n {2}islands: \{\},\n/);
      assert.equal(await denoFmt(source), source);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
});
