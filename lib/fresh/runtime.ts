/**
 * `$fresh/runtime.ts`: helpers usable in pages, components and islands alike.
 */
import { useContext } from "preact/hooks";
import { getBuildId, HeadContext } from "./src/shared.ts";
import type { HeadProps } from "./src/types.ts";

/** True in the browser, false during server rendering. */
export const IS_BROWSER = typeof document !== "undefined";

/** Renders its children into the page's `<head>` (server side; a no-op in the browser). */
export function Head(props: HeadProps): null {
  const collector = useContext(HeadContext);
  if (collector) collector.push(props.children);
  return null;
}

/**
 * Adds the BUILD_ID as a cache-busting query to an absolute local path, so static files can be
 * served with immutable caching. Other URLs are returned unchanged.
 * @example <img src={asset("/logo.svg")} /> // "/logo.svg?__frsh_c=3f2a…"
 */
export function asset(path: string): string {
  const id = getBuildId();
  if (!id || !path.startsWith("/") || path.startsWith("//")) return path;
  if (path.includes("__frsh_c=")) return path;
  const url = new URL(path, "http://localhost");
  url.searchParams.set("__frsh_c", id);
  return url.pathname + url.search + url.hash;
}
