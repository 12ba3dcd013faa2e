/**
 * Trailing slashes: one spelling per page. `/foo/` redirects (307) to `/foo`, or `/foo` to
 * `/foo/` in "always" mode (`router.trailingSlash`; paths that look like files keep theirs).
 * Framework files (`/_frsh/`) are left alone.
 */
import type { MiddlewareHandler } from "../types.ts";

/**
 * The middleware that redirects a path spelled the other way.
 * @example trailingSlashes(config.router?.trailingSlash ? "always" : "never")
 */
export function trailingSlashes(mode: "always" | "never"): MiddlewareHandler {
  return function trailingSlashesMiddleware(_req, ctx) {
    const target = respelled(ctx.url.pathname, mode);
    if (target === null) return ctx.next();
    // Collapse leading slashes so "//evil.example/" cannot become a protocol-relative redirect.
    const location = "/" + target.replace(/^\/+/, "") + ctx.url.search;
    return new Response(null, { status: 307, headers: { location } });
  };
}

/** The path spelled as `mode` wants it, or null when it already is (or is a framework file). */
function respelled(path: string, mode: "always" | "never"): string | null {
  if (path.startsWith("/_frsh/")) return null;
  if (mode === "never" && path.length > 1 && path.endsWith("/")) return path.replace(/\/+$/, "");
  if (mode === "always" && !path.endsWith("/") && !/\.[a-z0-9]+$/i.test(path)) return path + "/";
  return null;
}
