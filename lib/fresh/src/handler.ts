/**
 * `createHandler`: builds (or loads) the browser bundle, the route table and the static file
 * list, and returns the request handler that runs middlewares, handlers and rendering.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Build, bundle, readSnapshot } from "./bundle.ts";
import {
  type ClientAssets,
  entrypointKey,
  type IslandInfo,
  registerIslands,
  renderPage,
} from "./render.ts";
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
import { precompressStatic, scanStaticDir, serveStatic } from "./static.ts";
import {
  compressResponse,
  type EncodedFile,
  encodeFile,
  type Encoding,
  PREFER_SMALLEST,
  serveEncoded,
} from "./compress.ts";
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
  });
}

/** The snapshot folder: `config.build.outDir` or `<root>/_fresh`. */
export function outDirOf(manifest: Manifest, config: FreshConfig): string {
  return config.build?.outDir ?? join(rootDirOf(manifest), "_fresh");
}

async function loadBuild(manifest: Manifest, config: FreshConfig): Promise<Build> {
  if (!isDev(config)) {
    const snapshot = await readSnapshot(outDirOf(manifest, config), rootDirOf(manifest));
    if (snapshot) return snapshot;
  }
  return await bundleApp(manifest, config);
}

const REFRESH_JS = `(() => {
  const id = document.currentScript?.dataset.buildId;
  const source = new EventSource("/_frsh/alive");
  source.onmessage = (event) => { if (event.data !== id) location.reload(); };
})();
`;

interface App {
  table: RouteTable;
  build: Build;
  assets: ClientAssets;
  staticFiles: Map<string, string>;
  config: FreshConfig;
  dev: boolean;
  /** Bundle files with their encoded variants, by file name. */
  chunks: Map<string, Promise<EncodedFile | null>>;
  /** Where the build step wrote the static files' variants (null: no build on disk). */
  staticVariants: string | null;
}

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
  if (!dev) precompress(app);
  return (req, info) => handle(app, req, info);
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

async function handle(app: App, req: Request, info?: ServeHandlerInfo): Promise<Response> {
  if (!URL.canParse(req.url)) return badRequestUrl(app, req, info);
  const url = new URL(req.url);
  const redirect = trailingSlashRedirect(url, app.config);
  if (redirect) return redirect;

  const ctx = newContext(app, req, url, info);
  const { final, middlewares: inner } = dispatch(app, req, ctx);
  // The error page is rendered inside the root middlewares, so they see it as an answer (and,
  // e.g., add their headers); folder middlewares still see the thrown error (see README).
  const root = middlewaresFor(app.table, "").length;
  const boundary: MiddlewareHandler = (req, ctx) =>
    ctx.next().catch((err) => renderError(app, req, ctx, err));
  const middlewares = [...inner.slice(0, root), boundary, ...inner.slice(root)];
  try {
    let i = 0;
    ctx.next = () => {
      const mw = middlewares[i++];
      return mw ? Promise.resolve(mw(req, ctx)) : final();
    };
    const res = await compressResponse(req, await ctx.next());
    if (app.dev && !res.headers.has("cache-control")) {
      try {
        res.headers.set("cache-control", "no-cache");
      } catch {
        // Immutable headers (e.g. a fetched Response): leave them.
      }
    }
    return res;
  } catch (err) {
    return await compressResponse(req, await renderError(app, req, ctx, err));
  }
}

/**
 * A request whose URL cannot be parsed (e.g. `Host: a b`): 400, answered through the root
 * middlewares only (so it gets the app's headers), as if it asked for "/" on no known host.
 */
function badRequestUrl(app: App, req: Request, info?: ServeHandlerInfo): Promise<Response> {
  const ctx = newContext(app, req, new URL("http://invalid.invalid/"), info);
  const middlewares = middlewaresFor(app.table, "");
  let i = 0;
  ctx.next = () => {
    const mw = middlewares[i++];
    return mw
      ? Promise.resolve(mw(req, ctx))
      : Promise.resolve(new Response("Bad Request: invalid Host header", { status: 400 }));
  };
  return ctx.next().catch((err) => renderError(app, req, ctx, err));
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
  const staticFile = isRead(req) ? app.staticFiles.get(url.pathname) : undefined;
  if (staticFile) {
    ctx.destination = "static";
    return {
      middlewares: root(),
      final: () => serveStatic(req, url, staticFile, app.dev, app.staticVariants),
    };
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

function isRead(req: Request): boolean {
  return req.method === "GET" || req.method === "HEAD";
}

function trailingSlashRedirect(url: URL, config: FreshConfig): Response | null {
  if (url.pathname.startsWith("/_frsh/")) return null;
  const path = url.pathname;
  const wantSlash = config.router?.trailingSlash === true;
  let target: string | null = null;
  if (!wantSlash && path.length > 1 && path.endsWith("/")) target = path.replace(/\/+$/, "");
  if (wantSlash && !path.endsWith("/") && !/\.[a-z0-9]+$/i.test(path)) target = path + "/";
  if (target === null) return null;
  // Collapse leading slashes so "//evil.example/" cannot become a protocol-relative redirect.
  const location = "/" + target.replace(/^\/+/, "") + url.search;
  return new Response(null, { status: 307, headers: { location } });
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

function htmlResponse(html: string | Response, init: ResponseInit): Response {
  if (html instanceof Response) return html;
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "text/html; charset=utf-8");
  return new Response(html, { ...init, headers });
}

/** Renders a root page module (`_404`, `_500`) inside `_app` and the root layouts. */
async function renderSpecial(
  app: App,
  req: Request,
  ctx: FreshContext,
  page: NonNullable<RouteTable["notFound"]>["default"],
  data: unknown,
  error: unknown,
  status: number,
  init: ResponseInit = {},
): Promise<Response> {
  if (!page) {
    const text = status === 404
      ? "404 Not Found"
      : status === 500
      ? "500 Internal Server Error"
      : String(status);
    const headers = new Headers(init.headers);
    headers.set("content-type", "text/plain; charset=utf-8");
    return new Response(text, { status, headers });
  }
  const wrappers = layoutsFor(app.table, "", {}).map((l) => l.component);
  if (app.table.app) wrappers.unshift(app.table.app);
  const html = await renderPage({
    req,
    ctx,
    page,
    wrappers,
    data,
    error,
    plugins: app.config.plugins ?? [],
    assets: app.assets,
    dev: app.dev,
  });
  return htmlResponse(html, { ...init, status });
}

async function renderNotFound(
  app: App,
  req: Request,
  ctx: FreshContext,
  data: unknown,
): Promise<Response> {
  const mod = app.table.notFound;
  const render = (d?: unknown, init?: ResponseInit) =>
    renderSpecial(app, req, ctx, mod?.default, d ?? data, undefined, init?.status ?? 404);
  const handler = mod?.handler;
  const fn = typeof handler === "function" ? handler : (handler as Handlers | undefined)?.GET;
  if (!fn) return await render();
  return await (fn as Handler)(req, { ...ctx, render, renderNotFound: render });
}

/**
 * The answer to a thrown error: `_500`'s handler when it has one (Fresh's `ErrorHandler`: it reads
 * `ctx.error`; `ctx.render(data, init)` renders `_500`, status 500 unless `init` says otherwise;
 * `ctx.renderNotFound()` renders `_404`), else `_500` with status 500. A 5xx answer is logged.
 */
async function renderError(
  app: App,
  req: Request,
  ctx: FreshContext,
  err: unknown,
): Promise<Response> {
  try {
    const mod = app.table.error;
    const render = (data?: unknown, init?: ResponseInit) =>
      renderSpecial(app, req, errorCtx, mod?.default, data, err, init?.status ?? 500, init);
    const errorCtx: FreshContext = { ...ctx, error: err, render };
    const handler = mod?.handler;
    const fn = typeof handler === "function" ? handler : (handler as Handlers | undefined)?.GET;
    const res = fn ? await (fn as Handler)(req, errorCtx) : await render();
    if (res.status >= 500) {
      console.error(`Error while handling ${req.method} ${ctx.url.pathname}:`, err);
    }
    return res;
  } catch (renderErr) {
    console.error(`Error while handling ${req.method} ${ctx.url.pathname}:`, err);
    console.error("Error while rendering the error page:", renderErr);
    return new Response("500 Internal Server Error", {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
}

async function serveInternal(app: App, req: Request, url: URL): Promise<Response> {
  if (url.pathname === "/_frsh/refresh.js" && app.dev) {
    return new Response(REFRESH_JS, {
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  if (url.pathname === "/_frsh/alive" && app.dev) return aliveStream(app.build.buildId);
  const match = url.pathname.match(/^\/_frsh\/js\/([^/]+)\/([^/]+)$/);
  if (!match || match[1] !== app.build.buildId || !isRead(req)) {
    return new Response("Not Found", { status: 404 });
  }
  const file = await chunk(app, match[2]);
  if (!file) return new Response("Not Found", { status: 404 });
  const headers = new Headers({ "content-type": JS_TYPE });
  headers.set("cache-control", app.dev ? "no-cache" : "public, max-age=31536000, immutable");
  return serveEncoded(req, file, headers);
}

const JS_TYPE = "text/javascript; charset=utf-8";

/**
 * A bundle file with its brotli/gzip variants (null: no such file): those of the build step, or
 * compressed once per process.
 */
function chunk(app: App, name: string): Promise<EncodedFile | null> {
  let file = app.chunks.get(name);
  if (!file) {
    file = (async () => {
      const bytes = await app.build.read(name);
      if (!bytes) return null;
      const made: Partial<Record<Encoding, Uint8Array>> = {};
      for (const encoding of PREFER_SMALLEST) {
        const variant = await app.build.readEncoded(name, encoding);
        if (variant) made[encoding] = variant;
      }
      // The names hold a content hash: they make the ETag.
      return encodeFile(bytes, JS_TYPE, `"${name.replace(/\.js$/, "")}"`, made);
    })();
    app.chunks.set(name, file);
  }
  return file;
}

/**
 * Compresses, in the background, what the build step did not: every bundle file of an in-memory
 * build, and the static text files without variants in the snapshot.
 */
function precompress(app: App): void {
  if (!app.build.prebuilt) {
    for (const name of Object.keys(app.build.deps)) chunk(app, name).catch(() => {});
  }
  precompressStatic(app.staticFiles.values(), app.staticVariants);
}

/** Open live-reload streams, closed on SIGINT/SIGTERM so a graceful shutdown does not wait. */
const aliveStreams = new Set<ReadableStreamDefaultController<Uint8Array>>();
let closeOnSignal = false;

function closeAliveStreams(): void {
  for (const controller of aliveStreams) controller.close();
  aliveStreams.clear();
}

/** Server-sent events for live reload: sends the BUILD_ID, then keeps the stream open. */
function aliveStream(buildId: string): Response {
  if (!closeOnSignal && Deno.build.os !== "windows") {
    closeOnSignal = true;
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, closeAliveStreams);
    }
  }
  let self: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      self = controller;
      aliveStreams.add(controller);
      controller.enqueue(new TextEncoder().encode(`retry: 500\ndata: ${buildId}\n\n`));
    },
    cancel() {
      aliveStreams.delete(self);
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}
