/**
 * The middleware chain: each middleware gets the request and the context, and `ctx.next()` runs
 * the next one, or `final` after the last. One function runs every chain of the handler.
 */
import type { FreshContext, MiddlewareHandler } from "./types.ts";

/**
 * Runs `middlewares` in order around `final` and returns the first answer; a middleware may
 * answer without calling `ctx.next()`, and an error thrown anywhere (even synchronously)
 * rejects the result.
 * @example await runChain(req, ctx, [logger, auth], () => route(req, ctx));
 */
export function runChain(
  req: Request,
  ctx: FreshContext,
  middlewares: MiddlewareHandler[],
  final: () => Promise<Response>,
): Promise<Response> {
  let i = 0;
  ctx.next = () => {
    const mw = middlewares[i++];
    try {
      return mw ? Promise.resolve(mw(req, ctx)) : final();
    } catch (err) {
      // A middleware that throws before its first await still rejects: an outer
      // `ctx.next().catch(…)` sees the error as it would an async one.
      return Promise.reject(err);
    }
  };
  return ctx.next();
}
