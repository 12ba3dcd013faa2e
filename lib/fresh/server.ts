/**
 * `$fresh/server.ts`: the server API of the Fresh-1.x-compatible core.
 * @example
 * import type { Handlers, PageProps } from "$fresh/server.ts";
 * export const handler: Handlers<Data> = { GET: (_req, ctx) => ctx.render(data) };
 */
import { createHandler, isDev } from "./src/handler.ts";
import { markAsync } from "./src/render.ts";
import type { AsyncComponent, FreshConfig, FreshContext, Manifest } from "./src/types.ts";
import type { VNode } from "preact";

export type {
  AppProps,
  AsyncComponent,
  ErrorHandler,
  ErrorPageProps,
  FreshConfig,
  FreshContext,
  Handler,
  Handlers,
  HeadProps,
  IslandModule,
  LayoutProps,
  Manifest,
  MiddlewareHandler,
  PageProps,
  Plugin,
  PluginAsyncRenderContext,
  PluginBuildInfo,
  PluginMiddleware,
  PluginRenderContext,
  PluginRenderResult,
  PluginRenderScripts,
  PluginRenderStyleTag,
  PluginRoute,
  RequestHandler,
  RouteConfig,
  RouteModule,
  UnknownPageProps,
} from "./src/types.ts";
export { createHandler };

/** Kept for Fresh compatibility: Fresh 1.x called the context `HandlerContext` too. */
export type HandlerContext<Data = unknown, State = Record<string, unknown>> = FreshContext<
  State,
  Data
>;

/** Returns the config unchanged; gives it a type. */
export function defineConfig(config: FreshConfig): FreshConfig {
  return config;
}

type RouteFn<State> = (
  req: Request,
  ctx: FreshContext<State>,
) => Promise<VNode | Response | null> | VNode | Response | null;

/** Defines an async page component that gets `(req, ctx)` and returns JSX or a Response. */
export function defineRoute<State = Record<string, unknown>>(
  fn: RouteFn<State>,
): AsyncComponent<State> {
  return markAsync(fn) as AsyncComponent<State>;
}

/** Defines a `_layout` that gets `(req, ctx)`; render `<ctx.Component />` inside it. */
export function defineLayout<State = Record<string, unknown>>(
  fn: RouteFn<State>,
): AsyncComponent<State> {
  return markAsync(fn) as AsyncComponent<State>;
}

/** Defines the `_app` wrapper that gets `(req, ctx)`; render `<ctx.Component />` inside it. */
export function defineApp<State = Record<string, unknown>>(
  fn: RouteFn<State>,
): AsyncComponent<State> {
  return markAsync(fn) as AsyncComponent<State>;
}

/** Starts the HTTP server (port: config, else `PORT`, else 8000). Resolves when it stops. */
export async function start(manifest: Manifest, config: FreshConfig = {}): Promise<void> {
  const handler = await createHandler(manifest, config);
  const port = config.server?.port ?? config.port ?? Number(Deno.env.get("PORT") ?? 8000);
  const hostname = config.server?.hostname ?? config.hostname;
  const server = Deno.serve({
    port,
    hostname,
    signal: config.server?.signal,
    onListen: config.server?.onListen ?? ((addr) => {
      const mode = isDev(config) ? " (dev)" : "";
      console.log(`Listening on http://${addr.hostname}:${addr.port}/${mode}`);
    }),
  }, handler);
  await server.finished;
}
