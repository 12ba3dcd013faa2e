/**
 * Error pages: an error thrown further down the chain becomes the `_500` page (inside `_app` and
 * the root layouts, see special_pages.ts), so the middlewares above it see an answer.
 */
import type { App } from "../app_state.ts";
import { renderError } from "../special_pages.ts";
import type { MiddlewareHandler } from "../types.ts";

/** The middleware that answers an error thrown below it with the error page. */
export function errorPages(app: App): MiddlewareHandler {
  return function errorPagesMiddleware(req, ctx) {
    return ctx.next().catch((err) => renderError(app, req, ctx, err));
  };
}
