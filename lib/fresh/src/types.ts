/**
 * Public types of the Fresh-1.x-compatible core. Route, layout, middleware and plugin
 * modules are typed against these; `server.ts` re-exports them.
 */
import type { ComponentChildren, ComponentType, VNode } from "preact";

/** Extra information about the connection, as given by `Deno.serve`. */
export type ServeHandlerInfo = Deno.ServeHandlerInfo;

/** The request context handed to handlers, middlewares and async components. */
export interface FreshContext<State = Record<string, unknown>, Data = unknown> {
  /** The parsed request URL. */
  url: URL;
  /** Path parameters of the matched route (`[id]` → `params.id`). */
  params: Record<string, string>;
  /** Per-request state shared by middlewares, handlers and components. */
  state: State;
  /** The URLPattern pathname of the matched route, or null (404, static files). */
  route: string | null;
  /** What the request targets: a route, a static file, an internal asset or nothing. */
  destination: "route" | "static" | "internal" | "notFound";
  /** Connection information (remote address) when served over the network. */
  remoteAddr: Deno.NetAddr;
  /** Data handed to `render`, visible to async components (`ctx.data`). */
  data: Data;
  /** The rendered inner component; set for `_app` and `_layout` async components. */
  Component: ComponentType<Record<never, never>>;
  /** The error that led to `_500`, when rendering it. */
  error?: unknown;
  /** Renders the route's page with `data`; `init` sets status and headers. */
  render(data?: Data, init?: ResponseInit): Promise<Response>;
  /** Renders the `_404` page with status 404. */
  renderNotFound(data?: unknown): Promise<Response>;
  /** Calls the next middleware, or the route handler after the last one. */
  next(): Promise<Response>;
}

/** Props of a page component. */
export interface PageProps<Data = unknown, State = Record<string, unknown>> {
  url: URL;
  params: Record<string, string>;
  data: Data;
  state: State;
  route: string | null;
  /** The error, when rendering `_500`. */
  error?: unknown;
}

/** Props of `_app` and `_layout` components: page props plus the inner component. */
export interface AppProps<Data = unknown, State = Record<string, unknown>>
  extends PageProps<Data, State> {
  Component: ComponentType<Record<never, never>>;
}
export type LayoutProps<Data = unknown, State = Record<string, unknown>> = AppProps<Data, State>;
export type UnknownPageProps<Data = unknown, State = Record<string, unknown>> = PageProps<
  Data,
  State
>;
export type ErrorPageProps<State = Record<string, unknown>> = PageProps<unknown, State> & {
  error: unknown;
};

/** A handler for one method (or every method, when exported as a function). */
export type Handler<Data = unknown, State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State, Data>,
) => Response | Promise<Response>;

/**
 * The handler of `_500`: called with `ctx.error` set; `ctx.render(data, init)` renders `_500`
 * (status 500 unless `init` sets one), `ctx.renderNotFound()` renders `_404`.
 */
export type ErrorHandler<State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State>,
) => Response | Promise<Response>;

/** Handlers keyed by HTTP method. */
export type Handlers<Data = unknown, State = Record<string, unknown>> = {
  [K in "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS"]?: Handler<
    Data,
    State
  >;
};

/** A `_middleware.ts` handler: call `ctx.next()` to continue. */
export type MiddlewareHandler<State = Record<string, unknown>> = (
  req: Request,
  ctx: FreshContext<State>,
) => Response | Promise<Response>;

/** Per-route options (`export const config: RouteConfig`). */
export interface RouteConfig {
  /** A URLPattern pathname used instead of the one derived from the file path. */
  routeOverride?: string;
  /** Do not wrap this page in `_app`. */
  skipAppWrapper?: boolean;
  /** Do not wrap this page in the `_layout`s of parent folders. */
  skipInheritedLayouts?: boolean;
}

/** An async page/layout/app component: gets the request and context, returns JSX or a Response. */
export type AsyncComponent<State = Record<string, unknown>, Data = unknown> = (
  req: Request,
  ctx: FreshContext<State, Data>,
) => Promise<VNode | Response | null> | VNode | Response | null;

/** What a route module may export. */
export interface RouteModule {
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any> | AsyncComponent<any, any>;
  // deno-lint-ignore no-explicit-any
  handler?: Handler<any, any> | Handlers<any, any> | MiddlewareHandler<any>[];
  config?: RouteConfig;
}

/** What an island module exports: its component as default export. */
export interface IslandModule {
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any>;
}

/** The generated `fresh.gen.ts` manifest. */
export interface Manifest {
  routes: Record<string, RouteModule>;
  islands: Record<string, IslandModule>;
  /** `import.meta.url` of the manifest file: the app root is its folder. */
  baseUrl: string;
}

/** A stylesheet a plugin adds to the `<head>`. */
export interface PluginRenderStyleTag {
  cssText: string;
  media?: string;
  id?: string;
}

/** A plugin script: the entrypoint's default export is called with `state` in the browser. */
export interface PluginRenderScripts {
  entrypoint: string;
  state: unknown;
}

/** What a plugin render hook returns. */
export interface PluginRenderResult {
  styles?: PluginRenderStyleTag[];
  scripts?: PluginRenderScripts[];
}

/** Context of a plugin render hook; `render()` renders the page once and returns its HTML. */
export interface PluginRenderContext {
  render(): { htmlText: string };
  /** Names of the islands present on the page. */
  islands: string[];
}
export interface PluginAsyncRenderContext {
  renderAsync(): Promise<{ htmlText: string }>;
  islands: string[];
}

/** A route added by a plugin. */
export interface PluginRoute {
  path: string;
  // deno-lint-ignore no-explicit-any
  component?: ComponentType<PageProps<any>>;
  // deno-lint-ignore no-explicit-any
  handler?: Handler<any, any> | Handlers<any, any>;
}

/** A middleware added by a plugin at a path prefix ("/" for all). */
export interface PluginMiddleware {
  path: string;
  middleware: { handler: MiddlewareHandler | MiddlewareHandler[] };
}

/** A Fresh plugin (the subset this core supports). */
export interface Plugin {
  name: string;
  /** Browser entrypoints: name → module URL (file: or data:) whose default export takes state. */
  entrypoints?: Record<string, string>;
  render?(ctx: PluginRenderContext): PluginRenderResult;
  renderAsync?(ctx: PluginAsyncRenderContext): Promise<PluginRenderResult>;
  routes?: PluginRoute[];
  middlewares?: PluginMiddleware[];
  /**
   * Called once the browser bundle is built or loaded, before the first render (not in Fresh
   * 1.x): what each island is made of, so a plugin can prepare per-island output ahead of time.
   * What it returns (JSON) at `dev.ts build` is kept in the snapshot and given back as `data`
   * to later starts, so they can skip that work.
   */
  buildReady?(build: PluginBuildInfo): unknown | Promise<unknown>;
}

/** What `buildReady` gets. */
export interface PluginBuildInfo {
  /** The app folder. */
  rootDir: string;
  /** Island name → its source files, relative to `rootDir` (islands and what they import). */
  islandInputs: Record<string, string[]>;
  /** What this plugin's `buildReady` returned at `dev.ts build`, when the snapshot holds it. */
  data?: unknown;
}

/** Options of `start`, `createHandler` and `dev`. */
export interface FreshConfig {
  plugins?: Plugin[];
  /** Dev mode: no caching, live reload. Defaults to `FRESH_DEV=1` in the environment. */
  dev?: boolean;
  build?: {
    /** Where `dev.ts build` writes, and `start` reads, the snapshot (default `<root>/_fresh`). */
    outDir?: string;
    /** esbuild target (default "es2022"). */
    target?: string | string[];
    /**
     * Page groups (named from their route: `admin/players.tsx` → `admin-players`) whose own code
     * is never folded into the chunks of other pages (see fold.ts): e.g. `/^admin(-|$)/`, so a
     * visitor's page never loads admin code.
     */
    foldApart?: RegExp;
  };
  /** Folder of static files (default `<root>/static`). */
  staticDir?: string;
  router?: {
    /** Redirect `/foo` to `/foo/` instead of the reverse. */
    trailingSlash?: boolean;
  };
  server?: {
    port?: number;
    hostname?: string;
    signal?: AbortSignal;
    onListen?: (addr: Deno.NetAddr) => void;
  };
  port?: number;
  hostname?: string;
}

/** The request handler returned by `createHandler`. */
export type RequestHandler = (req: Request, info?: ServeHandlerInfo) => Promise<Response>;

/** Props of `<Head>`. */
export interface HeadProps {
  children: ComponentChildren;
}
