/**
 * `npm start` runs this first: builds the browser bundles and their compressed variants
 * (`dev.ts build` into `_fresh/`) unless the build there is current, so the server's isolates
 * start from files made once (brotli 11) instead of each bundling and compressing at start-up.
 * A stale or missing build would still work here (each isolate bundles in memory), only slower
 * to start and heavier on the wire for its first seconds; on Deno Deploy, which cannot bundle,
 * the start stops with one line instead.
 */
import manifest from "@/fresh.gen.ts";
import config from "@/fresh.config.ts";
import { hasCurrentBuild } from "$fresh/build.ts";

/**
 * Runs `dev.ts build` when `_fresh/` holds no current build; true when it built. One process
 * builds at a time (a lock file beside `_fresh/`): a build rewrites the whole directory, so two at
 * once (tests running in parallel, two `npm start`s) could each find the other's half-written
 * build missing. A process that waited finds the build current and does not build again.
 */
export async function buildIfStale(): Promise<boolean> {
  if (await hasCurrentBuild(manifest, config)) return false;
  using _lock = await lockBuilds();
  if (await hasCurrentBuild(manifest, config)) return false;
  console.log("Building the browser bundles (deno task build)…");
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../dev.ts", import.meta.url).pathname, "build"],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`deno task build failed (exit ${code})`);
  return true;
}

/** Holds the exclusive lock on `_fresh.lock` until disposed (or the process ends). */
async function lockBuilds(): Promise<Disposable> {
  const file = await Deno.open(new URL("../_fresh.lock", import.meta.url), {
    create: true,
    write: true,
  });
  await file.lock(true);
  return { [Symbol.dispose]: () => file.close() };
}

if (import.meta.main) {
  try {
    await buildIfStale();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    Deno.exit(1);
  }
}
