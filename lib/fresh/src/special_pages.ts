/**
 * The root pages that answer when no route does: `_404` (not found) and `_500` (a thrown error),
 * rendered inside `_app` and the root layouts, with their handlers when the modules have them,
 * and a plain-text answer when the app has no such page.
 */
import { layoutsFor, type RouteTable } from "./router.ts";
import { renderPage } from "./render.ts";
import type { App } from "./app_state.ts";
import type { FreshContext, Handler, Handlers } from "./types.ts";

/** A rendered page as a response (a Response from the renderer passes through). */
export function htmlResponse(html: string | Response, init: ResponseInit): Response {
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

export async function renderNotFound(
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
export async function renderError(
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
