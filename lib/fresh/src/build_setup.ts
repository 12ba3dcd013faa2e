/**
 * Where the app lives and how it is built: the manifest's folder, dev mode, the islands and
 * plugin entrypoints the bundler takes, and the build (the snapshot of `deno task build`, or a
 * bundle made in memory).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Build, bundle, readSnapshot } from "./bundle.ts";
import { entrypointKey } from "./render.ts";
import type { FreshConfig, Manifest } from "./types.ts";

/** The app folder: where the manifest (fresh.gen.ts) lives. */
export function rootDirOf(manifest: Manifest): string {
  return fileURLToPath(new URL(".", manifest.baseUrl));
}

/** Whether dev mode is on: `config.dev`, else `FRESH_DEV=1`. */
export function isDev(config: FreshConfig): boolean {
  return config.dev ?? Deno.env.get("FRESH_DEV") === "1";
}

/** Island name from its manifest key: "./islands/TeamBuilder.tsx" → "TeamBuilder". */
export function islandName(key: string): string {
  return key.replace(/^\.\/islands\//, "").replace(/\.(tsx|ts|jsx|js)$/, "").replace(/\W/g, "_");
}

/** Island name → absolute file path, for the bundler. */
export function islandFiles(manifest: Manifest): Record<string, string> {
  const root = rootDirOf(manifest);
  return Object.fromEntries(
    Object.keys(manifest.islands).map((key) => [islandName(key), join(root, key)]),
  );
}

/** Plugin entrypoints keyed "<plugin>_<entry>" as the bundler and renderer name them. */
export function pluginEntrypoints(config: FreshConfig): Record<string, string> {
  const out: Record<string, string> = {};
  for (const plugin of config.plugins ?? []) {
    for (const [name, url] of Object.entries(plugin.entrypoints ?? {})) {
      out[entrypointKey(plugin.name, name)] = url;
    }
  }
  return out;
}

/** Bundles the app's pages and plugin entrypoints (used at start and by `dev.ts build`). */
export function bundleApp(manifest: Manifest, config: FreshConfig) {
  return bundle({
    rootDir: rootDirOf(manifest),
    islands: islandFiles(manifest),
    routes: Object.keys(manifest.routes).map((key) => key.replace(/^\.\//, "")),
    entrypoints: pluginEntrypoints(config),
    dev: isDev(config),
    target: config.build?.target,
    foldApart: config.build?.foldApart,
  });
}

/** The snapshot folder: `config.build.outDir` or `<root>/_fresh`. */
export function outDirOf(manifest: Manifest, config: FreshConfig): string {
  return config.build?.outDir ?? join(rootDirOf(manifest), "_fresh");
}

/** The build: the snapshot on disk (not in dev mode), else a bundle made now. */
export async function loadBuild(manifest: Manifest, config: FreshConfig): Promise<Build> {
  if (!isDev(config)) {
    const snapshot = await readSnapshot(outDirOf(manifest, config), rootDirOf(manifest));
    if (snapshot) return snapshot;
  }
  return await bundleApp(manifest, config);
}
