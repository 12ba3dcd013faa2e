/**
 * Compression: every answer the app makes (pages, JSON, error pages) is compressed per
 * `Accept-Encoding` with a fast level; fixed files (island chunks, static files) arrive already
 * encoded, from variants made once, and pass through (see ../compress.ts).
 */
import { compressResponse } from "../compress.ts";
import type { MiddlewareHandler } from "../types.ts";

/** The middleware that compresses the answer of the rest of the chain. */
export function compression(): MiddlewareHandler {
  return async function compressionMiddleware(req, ctx) {
    return compressResponse(req, await ctx.next());
  };
}
