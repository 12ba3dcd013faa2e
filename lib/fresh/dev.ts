/**
 * `$fresh/dev.ts`: the development entry. `dev(import.meta.url, "./main.ts", config)`
 * regenerates `fresh.gen.ts`, then, depending on the first CLI argument:
 * - `gen`: stops there;
 * - `build`: writes the production bundle and snapshot into `_fresh/`;
 * - none: sets `FRESH_DEV=1` (no caching, live reload) and imports the entry (`main.ts`).
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeSnapshot } from "./src/bundle.ts";
import { bundleApp, outDirOf, rootDirOf } from "./src/handler.ts";
import { writeStaticVariants } from "./src/static.ts";
import { writeManifest } from "./src/manifest.ts";
import type { FreshConfig, Manifest } from "./src/types.ts";

/** Regenerates the manifest and runs the requested mode (see the module doc). */
export async function dev(base: string, entry: string, config: FreshConfig = {}): Promise<void> {
  const rootDir = dirname(fileURLToPath(base));
  const changed = await writeManifest(rootDir);
  const mode = Deno.args[0];
  if (mode === "gen") {
    console.log(changed ? "fresh.gen.ts updated" : "fresh.gen.ts is up to date");
    return;
  }
  if (mode === "build") {
    await build(new URL("./fresh.gen.ts", base).href, config);
    return;
  }
  Deno.env.set("FRESH_DEV", "1");
  await import(new URL(entry, base).href);
}

/**
 * Bundles for production and writes the snapshot that `start` then serves without bundling:
 * the chunks with their brotli/gzip variants, those of the static text files, and what the
 * plugins' `buildReady` prepared (so no server does that work at start).
 */
export async function build(manifestUrl: string, config: FreshConfig = {}): Promise<void> {
  const manifest = (await import(manifestUrl)).default as Manifest;
  const result = await bundleApp(manifest, { ...config, dev: false });
  const rootDir = rootDirOf(manifest);
  for (const plugin of config.plugins ?? []) {
    const data = await plugin.buildReady?.({ rootDir, islandInputs: result.islandInputs });
    if (data !== undefined) result.pluginData[plugin.name] = data;
  }
  const outDir = outDirOf(manifest, config);
  await writeSnapshot(result, outDir);
  await writeStaticVariants(config.staticDir ?? join(rootDir, "static"), join(outDir, "static"));
  console.log(`Built ${result.files.size} files into ${outDir} (BUILD_ID ${result.buildId})`);
}
