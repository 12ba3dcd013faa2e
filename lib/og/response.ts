/** The HTTP side of the link-preview images: how they are asked for and answered. */
import { svgToPng } from "./png.ts";

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

/** A 200 `image/png` answer with the rendered `svg`. */
export async function pngResponse(svg: string): Promise<Response> {
  const png = await svgToPng(svg);
  return new Response(png as BodyInit, {
    headers: { "content-type": "image/png", "cache-control": PREVIEW_CACHE_CONTROL },
  });
}
