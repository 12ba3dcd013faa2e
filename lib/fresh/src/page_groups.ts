/**
 * Page groups: which islands each route can render, read from the server-side import graph of
 * the route files (the route, the `_layout`s above it and `_app`). The bundler makes one browser
 * entry per group, so a page loads one entry and the chunks it shares with other pages instead
 * of one chunk per island. An upper bound: an island imported but rendered only sometimes is in.
 */
import * as esbuild from "esbuild";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { type ImportMap, loadImportMap, mapSpecifier } from "./resolve.ts";

/** Route files that are not pages: they wrap pages or run before them. */
const WRAPPERS = /(^|\/)_(app|layout|middleware)\.[jt]sx?$/;

/**
 * Group name (from the route path: `team-selection/[id].tsx` → `team-selection-id`) → the
 * islands the page can render. `routes` are the route files relative to `rootDir`
 * (`routes/index.tsx`); `islands` maps island names to absolute paths.
 * @example await pageGroups(root, ["routes/_app.tsx", "routes/index.tsx"], { Counter: "/app/islands/Counter.tsx" })
 * // { index: ["Counter"] } when index.tsx renders <Counter />
 */
export async function pageGroups(
  rootDir: string,
  routes: string[],
  islands: Record<string, string>,
): Promise<Record<string, string[]>> {
  const result = await esbuild.build({
    entryPoints: routes.map((route) => join(rootDir, route)),
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    jsx: "automatic",
    jsxImportSource: "react",
    outdir: "/frsh-graph",
    absWorkingDir: rootDir,
    logLevel: "silent",
    plugins: [localOnly(await loadImportMap(rootDir))],
  });
  const inputs = result.metafile.inputs;
  const islandOf = new Map(
    Object.entries(islands).map(([name, path]) => [toInput(rootDir, path), name]),
  );
  const reached = new Map<string, Set<string>>();
  const islandsOf = (file: string): Set<string> => {
    if (!reached.has(file)) {
      const found = new Set<string>();
      const seen = new Set<string>();
      const visit = (input: string) => {
        if (seen.has(input)) return;
        seen.add(input);
        const island = islandOf.get(input);
        if (island) found.add(island);
        for (const imported of inputs[input]?.imports ?? []) {
          if (!imported.external) visit(imported.path);
        }
      };
      visit(file);
      reached.set(file, found);
    }
    return reached.get(file)!;
  };
  const wrappers = routes.filter((route) => WRAPPERS.test(route) && !/_middleware/.test(route));
  const groups: Record<string, string[]> = {};
  for (const route of routes) {
    if (WRAPPERS.test(route)) continue;
    const dir = dirname(route);
    const found = new Set(islandsOf(route));
    for (const wrapper of wrappers) {
      const wrapperDir = dirname(wrapper);
      if (dir === wrapperDir || dir.startsWith(wrapperDir + "/")) {
        islandsOf(wrapper).forEach((island) => found.add(island));
      }
    }
    groups[groupName(route)] = [...found].sort();
  }
  return groups;
}

/** `routes/team-selection/[id].tsx` → `team-selection-id`. */
function groupName(route: string): string {
  return route.replace(/^routes\//, "").replace(/\.[jt]sx?$/, "").replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "").toLowerCase() || "index";
}

/** A path as esbuild's metafile names it: relative to the working directory, with `/`. */
function toInput(rootDir: string, path: string): string {
  return relative(rootDir, path).split(sep).join("/");
}

/** Follows the app's own files only: packages and `node:` modules stay external. */
function localOnly(importMap: { map: ImportMap; base: string }): esbuild.Plugin {
  return {
    name: "fresh-local-only",
    setup(build) {
      build.onResolve({ filter: /^file:/ }, (args) => ({ path: fileURLToPath(args.path) }));
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const mapped = mapSpecifier(args.path, importMap);
        return mapped.startsWith("/") ? { path: mapped } : { path: args.path, external: true };
      });
    },
  };
}
