/**
 * The file-system router: turns manifest entries into URLPattern routes (sorted like Fresh:
 * static segments before dynamic ones, dynamic before catch-all), layout chains and
 * middleware chains.
 */
import type { ComponentType } from "preact";
import type {
  AsyncComponent,
  Handler,
  Handlers,
  MiddlewareHandler,
  RouteConfig,
  RouteModule,
} from "./types.ts";

// deno-lint-ignore no-explicit-any
type AnyComponent = ComponentType<any> | AsyncComponent<any, any>;

/** A page or API route. */
export interface Route {
  /** URLPattern pathname, e.g. `/blog/:id`. */
  pattern: string;
  urlPattern: URLPattern;
  /**
   * Literal start of every pathname the pattern matches ("" when it has none), and the whole
   * pathname when the pattern is literal: most routes are ruled out without running URLPattern.
   */
  prefix: string;
  literal: boolean;
  /** Folder inside routes/ (with group folders), "" at the top. */
  dir: string;
  component?: AnyComponent;
  // deno-lint-ignore no-explicit-any
  handler?: Handler<any, any> | Handlers<any, any>;
  config: RouteConfig;
}

/** A `_layout` of one folder. */
export interface Layout {
  dir: string;
  component: AnyComponent;
  config: RouteConfig;
}

/** The `_middleware` handlers of one folder (or a plugin path). */
export interface Middleware {
  dir: string;
  handlers: MiddlewareHandler[];
}

/** Everything the request handler needs from `routes/`. */
export interface RouteTable {
  routes: Route[];
  layouts: Layout[];
  middlewares: Middleware[];
  app?: AnyComponent;
  appConfig?: RouteConfig;
  notFound?: RouteModule;
  error?: RouteModule;
}

const EXTENSION = /\.(tsx|ts|jsx|js)$/;

/** Builds the route table from the manifest's `routes` entries ("./routes/a/[id].tsx" → module). */
export function buildRouteTable(entries: Record<string, RouteModule>): RouteTable {
  const table: RouteTable = { routes: [], layouts: [], middlewares: [] };
  for (const [key, mod] of Object.entries(entries)) {
    const path = key.replace(/^\.\/routes\//, "").replace(EXTENSION, "");
    const parts = path.split("/");
    const file = parts.pop()!;
    const dir = parts.join("/");
    if (file === "_app" && dir === "") {
      table.app = mod.default;
      table.appConfig = mod.config;
    } else if (file === "_404" && dir === "") table.notFound = mod;
    else if (file === "_500" && dir === "") table.error = mod;
    else if (file === "_layout" && mod.default) {
      table.layouts.push({ dir, component: mod.default, config: mod.config ?? {} });
    } else if (file === "_middleware") {
      table.middlewares.push({ dir, handlers: toArray(mod.handler) });
    } else if (!file.startsWith("_")) {
      const pattern = mod.config?.routeOverride ?? pathToPattern([...parts, file]);
      table.routes.push(makeRoute(pattern, dir, mod));
    }
  }
  table.routes.sort(compareRoutes);
  table.layouts.sort((a, b) => depth(a.dir) - depth(b.dir));
  table.middlewares.sort((a, b) => depth(a.dir) - depth(b.dir));
  return table;
}

/** A route from a pattern, folder and module. */
export function makeRoute(pattern: string, dir: string, mod: RouteModule): Route {
  const handler = Array.isArray(mod.handler) ? undefined : mod.handler;
  return {
    pattern,
    urlPattern: new URLPattern({ pathname: pattern }),
    ...literalStart(pattern),
    dir,
    component: mod.default,
    handler,
    config: mod.config ?? {},
  };
}

/** Pattern syntax beyond a literal path (`:name`, groups, wildcards, modifiers, escapes). */
const PATTERN_SYNTAX = /[:*(){}?+\\]/;

/**
 * `/api/entries/:id` → prefix "/api/entries" (the segment before a parameter may be optional, as
 * in `/api/:rest*`, which also matches "/api"); `/api/entries` → literal.
 */
function literalStart(pattern: string): { prefix: string; literal: boolean } {
  const special = pattern.search(PATTERN_SYNTAX);
  if (special === -1) return { prefix: pattern, literal: true };
  return {
    prefix: pattern.slice(0, Math.max(0, pattern.lastIndexOf("/", special))),
    literal: false,
  };
}

function toArray(handler: RouteModule["handler"]): MiddlewareHandler[] {
  if (!handler) return [];
  if (Array.isArray(handler)) return handler;
  if (typeof handler === "function") return [handler as MiddlewareHandler];
  return [];
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

const isGroup = (segment: string) => /^\(.*\)$/.test(segment);

/** `["blog", "[id]"]` → `/blog/:id`; `index` disappears, `[...rest]` → `:rest*`, `(group)` vanishes. */
export function pathToPattern(segments: string[]): string {
  const out: string[] = [];
  segments.forEach((segment, i) => {
    if (isGroup(segment)) return;
    if (segment === "index" && i === segments.length - 1) return;
    const rest = segment.match(/^\[\.\.\.(\w+)\]$/);
    if (rest) return out.push(`:${rest[1]}*`);
    const escaped = segment.replace(/[\\(){}*+?]/g, "\\$&");
    out.push(escaped.replace(/\[(\w+)\]/g, ":$1"));
  });
  return "/" + out.join("/");
}

/** Segment kinds: 0 static, 1 dynamic, 2 catch-all. */
function ranks(pattern: string): number[] {
  if (pattern === "/") return [];
  return pattern.slice(1).split("/").map((s) => s.endsWith("*") ? 2 : s.includes(":") ? 1 : 0);
}

function compareRoutes(a: Route, b: Route): number {
  const ra = ranks(a.pattern);
  const rb = ranks(b.pattern);
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    if (ra[i] !== rb[i]) return ra[i] - rb[i];
  }
  if (ra.length !== rb.length) {
    // A catch-all also matches the shorter path, so the shorter route wins.
    return ra.length - rb.length;
  }
  return a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0;
}

/** Finds the first route matching `url`, with its params percent-decoded once. */
export function matchRoute(
  routes: Route[],
  url: URL,
): { route: Route; params: Record<string, string> } | null {
  const { pathname } = url;
  for (const route of routes) {
    if (route.literal) {
      if (pathname === route.prefix) return { route, params: {} };
      continue;
    }
    if (!pathname.startsWith(route.prefix)) continue;
    const match = route.urlPattern.exec({ pathname });
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(match.pathname.groups)) {
      if (/^\d+$/.test(key)) continue;
      params[key] = safeDecode(value ?? "");
    }
    return { route, params };
  }
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isWithin(dir: string, parent: string): boolean {
  return parent === "" || dir === parent || dir.startsWith(parent + "/");
}

/** Layouts wrapping a route, outermost first, honouring `skipInheritedLayouts`. */
export function layoutsFor(table: RouteTable, dir: string, config: RouteConfig): Layout[] {
  let chain = table.layouts.filter((layout) => isWithin(dir, layout.dir));
  if (config.skipInheritedLayouts) chain = chain.filter((layout) => layout.dir === dir);
  const cut = chain.findLastIndex((layout) => layout.config.skipInheritedLayouts);
  return cut > 0 ? chain.slice(cut) : chain;
}

/**
 * Middleware handlers of a route folder, outermost first. As in Fresh, a request no route
 * matches (a 404, a static file, an internal asset) runs only the root ones (`dir` "").
 */
export function middlewaresFor(table: RouteTable, dir: string): MiddlewareHandler[] {
  return table.middlewares.filter((mw) => isWithin(dir, mw.dir)).flatMap((mw) => mw.handlers);
}
