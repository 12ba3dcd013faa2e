/**
 * Static files from `static/`: content types, content-hash ETags with 304 answers, and
 * immutable caching when the URL carries the `asset()` cache-busting query.
 */
import { extname, join, relative, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".pdf": "application/pdf",
};

/** The content type for a file name (application/octet-stream when unknown). */
export function contentType(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
}

/** Lists files under `dir` as URL path → file path; an absent folder gives an empty map. */
export async function scanStaticDir(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(current: string) {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(current));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
      throw err;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile) files.set("/" + relative(dir, path).split(sep).join("/"), path);
    }
  }
  await walk(dir);
  return files;
}

const etags = new Map<string, { mtime: number; size: number; etag: string }>();

async function etagOf(path: string, stat: Deno.FileInfo, bytes: Uint8Array): Promise<string> {
  const mtime = stat.mtime?.getTime() ?? 0;
  const cached = etags.get(path);
  if (cached && cached.mtime === mtime && cached.size === stat.size) return cached.etag;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes as BufferSource));
  const etag = `"${[...digest.slice(0, 10)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
  etags.set(path, { mtime, size: stat.size, etag });
  return etag;
}

/** Answers a GET/HEAD for a static file, with ETag and If-None-Match handling. */
export async function serveStatic(
  req: Request,
  url: URL,
  path: string,
  dev: boolean,
): Promise<Response> {
  const [stat, bytes] = await Promise.all([Deno.stat(path), Deno.readFile(path)]);
  const etag = await etagOf(path, stat, bytes);
  const headers = new Headers({ etag, "content-type": contentType(path), vary: "If-None-Match" });
  if (dev) headers.set("cache-control", "no-cache");
  else if (url.searchParams.has("__frsh_c")) {
    headers.set("cache-control", "public, max-age=31536000, immutable");
  }
  if (ifNoneMatch(req.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("content-length", String(bytes.length));
  return new Response(req.method === "HEAD" ? null : bytes, { headers });
}

function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
