/** The HTTP side of the link-preview images: how they are asked for and answered. */
import { type PngRenders, RendersBusyError } from "./png.ts";

/**
 * Previewers fetch an image once and CDNs keep it; five minutes lets a shared team's points catch
 * up soon enough without rendering on every fetch.
 */
export const PREVIEW_CACHE_CONTROL = "public, max-age=300";

/**
 * `req` without its query string: an image depends on its path alone, so `?x=1`, `?x=2`, … share
 * one kept render instead of each costing a new one.
 */
export function previewRequest(req: Request): Request {
  const url = new URL(req.url);
  return url.search === "" ? req : new Request(`${url.origin}${url.pathname}`, req);
}

/**
 * A 301 to `canonicalPath` when `req` spells the image's path any other way (percent-encoded
 * characters, lower-case escapes), else null (a query string is ignored). Answered before anything is read
 * or rendered, so each image has one URL and one kept render.
 */
export function canonicalRedirect(req: Request, canonicalPath: string): Response | null {
  const url = new URL(req.url);
  if (url.pathname === canonicalPath) return null;
  return new Response(null, {
    status: 301,
    headers: { location: canonicalPath, "cache-control": PREVIEW_CACHE_CONTROL },
  });
}

/**
 * A 200 `image/png` answer with the rendered `svg` (kept per content, see `keptPng`), or a 503
 * with Retry-After when this isolate's `renders` are all busy.
 */
export async function pngResponse(renders: PngRenders, svg: string): Promise<Response> {
  let png: Uint8Array;
  try {
    png = await renders.keptPng(svg);
  } catch (err) {
    if (!(err instanceof RendersBusyError)) throw err;
    return new Response("Preview renders are busy; try again shortly.", {
      status: 503,
      headers: { "retry-after": "2", "cache-control": "no-store" },
    });
  }
  return new Response(png as BodyInit, {
    headers: { "content-type": "image/png", "cache-control": PREVIEW_CACHE_CONTROL },
  });
}
