/** Dev mode: answers without a cache policy get `Cache-Control: no-cache`, so edits show at once. */
import type { MiddlewareHandler } from "../types.ts";

/** The middleware that marks the answers of dev mode as not to be reused unchecked. */
export function devNoCache(): MiddlewareHandler {
  return async function devNoCacheMiddleware(_req, ctx) {
    const res = await ctx.next();
    if (res.headers.has("cache-control")) return res;
    try {
      res.headers.set("cache-control", "no-cache");
    } catch {
      // Immutable headers (e.g. a fetched Response): leave them.
    }
    return res;
  };
}
