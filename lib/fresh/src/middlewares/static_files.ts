/**
 * Static files: a GET or HEAD for a file of `static/` is answered from it (ETags, 304s, brotli or
 * gzip per `Accept-Encoding`, immutable caching under a `?__frsh_c=` build id; see static.ts).
 * It runs after the root middlewares, so they see static answers as they see pages.
 */
import { isRead } from "../app_state.ts";
import type { App } from "../app_state.ts";
import { serveStatic } from "../static.ts";
import type { MiddlewareHandler } from "../types.ts";

/** The path on disk of the static file `req` asks for, or undefined. */
export function staticFileFor(app: App, req: Request, url: URL): string | undefined {
  return isRead(req) ? app.staticFiles.get(url.pathname) : undefined;
}

/** The middleware that answers a request for a static file and passes on every other one. */
export function staticFiles(app: App): MiddlewareHandler {
  return function staticFilesMiddleware(req, ctx) {
    const path = staticFileFor(app, req, ctx.url);
    if (path === undefined) return ctx.next();
    return serveStatic(req, ctx.url, path, app.dev, app.staticVariants);
  };
}
