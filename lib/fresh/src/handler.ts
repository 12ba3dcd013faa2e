/**
 * `createHandler`: builds (or loads) the browser bundle, the route table and the static file
 * list, and returns the request handler: it finds what a request targets (a framework file, a
 * static file or a route), runs the middlewares of that place around it, and renders the page.
 * The parts live beside it: build_setup.ts (where the app is, how it is built), compose.ts (the
 * middleware chain), special_pages.ts (_404 and _500), internal_routes.ts (/_frsh/ files), and
 * middlewares/, one file per concern the framework adds to every chain (compression, trailing
 * slashes, error pages, static files, dev caching), composed in `chainOf`.
 */
import { join } from "node:path";
import { type ClientAssets, type IslandInfo, registerIslands, renderPage } from "./render.ts";
import {
  buildRouteTable,
  layoutsFor,
  makeRoute,
  matchRoute,
  middlewaresFor,
  type Route,
  type RouteTable,
} from "./router.ts";
import { setBuildId } from "./shared.ts";
import { scanStaticDir } from "./static.ts";
import type { App } from "./app_state.ts";
import { isDev, islandName, loadBuild, outDirOf, rootDirOf } from "./build_setup.ts";
import { runChain } from "./compose.ts";
import { htmlResponse, renderError, renderNotFound } from "./special_pages.ts";
import { precompress, serveInternal } from "./internal_routes.ts";
import { compression } from "./middlewares/compress.ts";
import { devNoCache } from "./middlewares/dev_no_cache.ts";
import { errorPages } from "./middlewares/error_pages.ts";
import { staticFileFor, staticFiles } from "./middlewares/static_files.ts";
import { trailingSlashes } from "./middlewares/trailing_slashes.ts";
import type {
  FreshConfig,
  FreshContext,
  Handler,
  Handlers,
  Manifest,
  MiddlewareHandler,
  RequestHandler,
  ServeHandlerInfo,
} from "./types.ts";

export {
  bundleApp,
  isDev,
  islandFiles,
  islandName,
  outDirOf,
  pluginEntrypoints,
  rootDirOf,
} from "./build_setup.ts";

/** Creates the app's request handler; no network needed, so tests call it directly. */
export async function createHandler(
  manifest: Manifest,
  config: FreshConfig = {},
): Promise<RequestHandler> {
  const dev = isDev(config);
  const islands: IslandInfo[] = [];
  for (const [key, mod] of Object.entries(manifest.islands)) {
    if (mod.default) islands.push({ name: islandName(key), component: mod.default });
  }
  registerIslands(islands);
  const table = buildRouteTable(manifest.routes);
  addPluginRoutes(table, config);
  const build = await loadBuild(manifest, config);
  setBuildId(build.buildId);
  for (const plugin of config.plugins ?? []) {
    await plugin.buildReady?.({
      rootDir: rootDirOf(manifest),
      islandInputs: build.islandInputs,
      data: build.pluginData[plugin.name],
    });
  }
  const base = `/_frsh/js/${build.buildId}/`;
  const url = (file: string) => base + file;
  const assets: ClientAssets = {
    buildId: build.buildId,
    groups: build.groups.map((group) => ({ islands: group.islands, url: url(group.file) })),
    entrypoints: mapValues(build.entrypoints, url),
    deps: Object.fromEntries(
      Object.entries(build.deps).map(([file, deps]) => [url(file), deps.map(url)]),
    ),
  };
  const staticDir = config.staticDir ?? join(rootDirOf(manifest), "static");
  const staticFiles = await scanStaticDir(staticDir);
  const staticVariants = build.prebuilt ? join(outDirOf(manifest, config), "static") : null;
  const app: App = {
    table,
    build,
    assets,
    staticFiles,
    config,
    dev,
    chunks: new Map(),
    staticVariants,
  };
  if (!dev) await precompress(app);
  const chain = chainOf(app);
  return (req, info) => handle(app, chain, req, info);
}

/** The framework's middlewares around and inside the root middlewares of the app. */
interface FrameworkChain {
  /** Before the root middlewares: compression, trailing slashes, dev caching, last-resort 500. */
  outer: MiddlewareHandler[];
  /** After them: the error page they see as an answer, then the static files. */
  inner: MiddlewareHandler[];
}

/**
 * Composes every request's chain, Fresh 2's way (one middleware per concern, in order):
 * compression outermost, so every answer (the error page too) is compressed once; an error page
 * for errors of the root middlewares themselves; trailing slashes before anything of the app
 * runs; then, inside the root middlewares (so they see those answers and add their headers),
 * error pages and static files, then the folder middlewares and the route.
 */
function chainOf(app: App): FrameworkChain {
  const mode = app.config.router?.trailingSlash === true ? "always" : "never";
  return {
    outer: [
      compression(),
      errorPages(app),
      trailingSlashes(mode),
      ...(app.dev ? [devNoCache()] : []),
    ],
    inner: [errorPages(app), staticFiles(app)],
  };
}

function mapValues(record: Record<string, string>, fn: (v: string) => string) {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)]));
}

function addPluginRoutes(table: RouteTable, config: FreshConfig): void {
  for (const plugin of config.plugins ?? []) {
    for (const route of plugin.routes ?? []) {
      table.routes.unshift(
        makeRoute(route.path, "", { default: route.component, handler: route.handler }),
      );
    }
    for (const mw of plugin.middlewares ?? []) {
      const dir = mw.path.replace(/^\/+|\/+$/g, "");
      const handlers = [mw.middleware.handler].flat();
      table.middlewares.unshift({ dir, handlers });
    }
  }
  const depth = (dir: string) => dir === "" ? 0 : dir.split("/").length;
  table.middlewares.sort((a, b) => depth(a.dir) - depth(b.dir));
}

const LOCAL_ADDR: Deno.NetAddr = { transport: "tcp", hostname: "127.0.0.1", port: 0 };

function handle(
  app: App,
  chain: FrameworkChain,
  req: Request,
  info?: ServeHandlerInfo,
): Promise<Response> {
  if (!URL.canParse(req.url)) return badRequestUrl(app, req, info);
  const ctx = newContext(app, req, new URL(req.url), info);
  const { final, middlewares } = dispatch(app, req, ctx);
  const root = middlewaresFor(app.table, "").length;
  return runChain(req, ctx, [
    ...chain.outer,
    ...middlewares.slice(0, root),
    ...chain.inner,
    ...middlewares.slice(root),
  ], final);
}

/**
 * A request whose URL cannot be parsed (e.g. `Host: a b`): 400, answered through the root
 * middlewares only (so it gets the app's headers), as if it asked for "/" on no known host.
 */
function badRequestUrl(app: App, req: Request, info?: ServeHandlerInfo): Promise<Response> {
  const ctx = newContext(app, req, new URL("http://invalid.invalid/"), info);
  const refuse = () =>
    Promise.resolve(new Response("Bad Request: invalid Host header", { status: 400 }));
  return runChain(req, ctx, middlewaresFor(app.table, ""), refuse)
    .catch((err) => renderError(app, req, ctx, err));
}

interface Dispatch {
  middlewares: MiddlewareHandler[];
  /** What answers after the last middleware. */
  final: () => Promise<Response>;
}

/** Finds what the request targets, sets `ctx.destination` (and params), picks the middlewares. */
function dispatch(app: App, req: Request, ctx: FreshContext): Dispatch {
  const { url } = ctx;
  const root = () => middlewaresFor(app.table, "");
  if (url.pathname.startsWith("/_frsh/")) {
    ctx.destination = "internal";
    return { middlewares: root(), final: () => serveInternal(app, req, url) };
  }
  if (staticFileFor(app, req, url) !== undefined) {
    ctx.destination = "static"; // answered by the staticFiles middleware after the root ones
    return { middlewares: root(), final: () => ctx.renderNotFound() };
  }
  const match = matchRoute(app.table.routes, url);
  if (!match) return { middlewares: root(), final: () => ctx.renderNotFound() };
  ctx.destination = "route";
  ctx.params = match.params;
  ctx.route = match.route.pattern;
  ctx.render = (data, init) => renderRoute(app, req, ctx, match.route, data, init);
  return {
    middlewares: middlewaresFor(app.table, match.route.dir),
    final: () => runRoute(req, ctx, match.route),
  };
}

function newContext(app: App, req: Request, url: URL, info?: ServeHandlerInfo): FreshContext {
  const ctx: FreshContext = {
    url,
    params: {},
    state: {},
    route: null,
    destination: "notFound",
    remoteAddr: (info?.remoteAddr as Deno.NetAddr | undefined) ?? LOCAL_ADDR,
    data: undefined,
    Component: () => null,
    render: () => Promise.reject(new Error("ctx.render() is only available in route handlers")),
    renderNotFound: (data?: unknown) => renderNotFound(app, req, ctx, data),
    next: () => Promise.reject(new Error("ctx.next() called outside a middleware")),
  };
  return ctx;
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

async function runRoute(req: Request, ctx: FreshContext, route: Route): Promise<Response> {
  if (typeof route.handler === "function") return await route.handler(req, ctx);
  const handlers: Handlers = { ...(route.handler as Handlers | undefined) };
  if (route.component && !handlers.GET) handlers.GET = (_req, ctx) => ctx.render();
  const method = req.method as keyof Handlers;
  const handler = handlers[method] as Handler | undefined;
  if (handler) return await handler(req, ctx);
  if (method === "HEAD" && handlers.GET) {
    const res = await handlers.GET(req, ctx);
    await res.body?.cancel();
    return new Response(null, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  }
  // Fresh 1.7's answer: no body, the route's methods listed in `Accept`.
  const known = METHODS.filter((m) => handlers[m]);
  return new Response(null, { status: 405, headers: { accept: known.join(", ") } });
}

async function renderRoute(
  app: App,
  req: Request,
  ctx: FreshContext,
  route: Route,
  data: unknown,
  init: ResponseInit = {},
): Promise<Response> {
  if (!route.component) throw new Error(`route ${route.pattern} has no component to render`);
  const wrappers = layoutsFor(app.table, route.dir, route.config).map((l) => l.component);
  if (app.table.app && !route.config.skipAppWrapper) wrappers.unshift(app.table.app);
  const html = await renderPage({
    req,
    ctx,
    page: route.component,
    wrappers,
    data,
    plugins: app.config.plugins ?? [],
    assets: app.assets,
    dev: app.dev,
  });
  return htmlResponse(html, init);
}
