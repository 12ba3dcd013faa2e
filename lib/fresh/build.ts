/**
 * `$fresh/build.ts`: whether the production build in `_fresh/` (`deno task build`) is current.
 * This core's addition to Fresh 1.x's API, for the entries that must not start without one
 * (Deno Deploy cannot bundle) or build first when it is stale (`npm start`).
 */
import { readSnapshot } from "./src/bundle.ts";
import { outDirOf, rootDirOf } from "./src/build_setup.ts";
import type { FreshConfig, Manifest } from "./src/types.ts";

/**
 * True when the build directory holds a snapshot made from today's sources; false when it is
 * missing, stale or unreadable (the handler would then bundle in memory).
 * @example if (!await hasCurrentBuild(manifest, config)) fail("run `deno task build` first");
 */
export async function hasCurrentBuild(
  manifest: Manifest,
  config: FreshConfig = {},
): Promise<boolean> {
  const snapshot = await readSnapshot(outDirOf(manifest, config), rootDirOf(manifest))
    .catch(() => null);
  return snapshot !== null;
}
