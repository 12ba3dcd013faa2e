/**
 * Module resolution as Deno does it, for esbuild: the `imports` of the app's deno.json, `npm:`
 * specifiers to package names, React names to preact (one copy of it), `file:` and `data:` URLs.
 */
import type * as esbuild from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type ImportMap = Record<string, string>;

/** The `imports` of the nearest deno.json above `rootDir`, so the bundle resolves like Deno. */
export async function loadImportMap(rootDir: string): Promise<{ map: ImportMap; base: string }> {
  for (let dir = rootDir;; dir = dirname(dir)) {
    try {
      const json = JSON.parse(await Deno.readTextFile(join(dir, "deno.json")));
      return { map: json.imports ?? {}, base: dir };
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    if (dirname(dir) === dir) return { map: {}, base: rootDir };
  }
}

/** `npm:preact@10.29.8/compat` → `preact/compat`. */
function stripNpm(specifier: string): string {
  const rest = specifier.slice(4).replace(/^\//, "");
  const match = rest.match(/^(@[^/]+\/[^@/]+|[^@/]+)(?:@[^/]*)?(\/.*)?$/);
  return match ? match[1] + (match[2] ?? "") : rest;
}

/** React names that must resolve to preact so there is one copy of it. */
const REACT_ALIASES: Record<string, string> = {
  "react": "preact/compat",
  "react-dom": "preact/compat",
  "react-dom/client": "preact/compat/client",
  "react/jsx-runtime": "preact/compat/jsx-runtime",
  "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
};

export function mapSpecifier(
  specifier: string,
  importMap: { map: ImportMap; base: string },
): string {
  if (REACT_ALIASES[specifier]) return REACT_ALIASES[specifier];
  const { map, base } = importMap;
  let mapped = map[specifier];
  if (mapped === undefined) {
    const prefix = Object.keys(map)
      .filter((key) => key.endsWith("/") && specifier.startsWith(key))
      .sort((a, b) => b.length - a.length)[0];
    if (prefix) mapped = map[prefix] + specifier.slice(prefix.length);
  }
  if (mapped === undefined) mapped = specifier;
  if (mapped.startsWith("npm:")) return stripNpm(mapped);
  if (mapped.startsWith("./") || mapped.startsWith("../")) return join(base, mapped);
  return mapped;
}

/** esbuild plugin resolving like Deno (see the module doc). */
export function resolverPlugin(
  importMap: { map: ImportMap; base: string },
  rootDir: string,
): esbuild.Plugin {
  return {
    name: "fresh-resolve",
    setup(build) {
      build.onResolve(
        { filter: /^data:/ },
        (args) => ({ path: args.path, namespace: "frsh-data" }),
      );
      build.onLoad({ filter: /.*/, namespace: "frsh-data" }, (args) => {
        const comma = args.path.indexOf(",");
        return {
          contents: decodeURIComponent(args.path.slice(comma + 1)),
          loader: "ts",
          resolveDir: rootDir,
        };
      });
      build.onResolve({ filter: /^file:/ }, (args) => ({ path: fileURLToPath(args.path) }));
      build.onResolve({ filter: /^[^./]|^\.\.?\/$/ }, async (args) => {
        if (args.pluginData === "mapped" || args.path.startsWith("/")) return undefined;
        const mapped = mapSpecifier(args.path, importMap);
        if (mapped === args.path) return undefined;
        if (mapped.startsWith("/")) return { path: mapped };
        const result = await build.resolve(mapped, {
          kind: args.kind,
          resolveDir: args.resolveDir || rootDir,
          importer: args.importer,
          pluginData: "mapped",
        });
        return result.errors.length ? { errors: result.errors } : { path: result.path };
      });
    },
  };
}
