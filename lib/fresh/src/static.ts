/**
 * Static files from `static/`: content types, content-hash ETags with 304 answers, brotli/gzip
 * variants made once per file, and immutable caching when the URL carries the `asset()`
 * cache-busting query.
 */
import { extname, join, relative, sep } from "node:path";
import {
  compressMax,
  type EncodedFile,
  encodeFile,
  type Encoding,
  isCompressible,
  MIN_FIXED_COMPRESS_BYTES,
  PREFER_SMALLEST,
  serveEncoded,
} from "./compress.ts";

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

/** Encoded variants per file, made once per file version (mtime and size). */
const files = new Map<string, { mtime: number; size: number; file: Promise<EncodedFile> }>();

/** A content hash of a file: its ETag (quoted) and the name of its build-time variants. */
async function hashOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes as BufferSource));
  return [...digest.slice(0, 10)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const EXT: Record<Encoding, string> = { br: "br", gzip: "gz" };

/**
 * Writes the brotli (11) and gzip (9) variants of the compressible static files into
 * `variantsDir`, named by content hash, so servers reuse them instead of compressing at start.
 * A file changed or added after the build has no variant there and is compressed when served.
 */
export async function writeStaticVariants(staticDir: string, variantsDir: string): Promise<void> {
  await Deno.mkdir(variantsDir, { recursive: true });
  for (const path of (await scanStaticDir(staticDir)).values()) {
    if (!isCompressible(contentType(path))) continue;
    const bytes = await Deno.readFile(path);
    if (bytes.length < MIN_FIXED_COMPRESS_BYTES) continue;
    const hash = await hashOf(bytes);
    for (const encoding of PREFER_SMALLEST) {
      const out = join(variantsDir, `${hash}.${EXT[encoding]}`);
      await Deno.writeFile(out, compressMax(bytes, encoding));
    }
  }
}

/** The build-time variants of a file with this hash (none when absent). */
async function readVariants(
  variantsDir: string | null,
  hash: string,
): Promise<Partial<Record<Encoding, Uint8Array>>> {
  const made: Partial<Record<Encoding, Uint8Array>> = {};
  if (!variantsDir) return made;
  for (const encoding of PREFER_SMALLEST) {
    const bytes = await Deno.readFile(join(variantsDir, `${hash}.${EXT[encoding]}`)).catch(
      () => null,
    );
    if (bytes) made[encoding] = bytes;
  }
  return made;
}

/** The file at `path` with its ETag and compressed variants, computed once per version. */
function encodedFile(
  path: string,
  stat: Deno.FileInfo,
  variantsDir: string | null,
): Promise<EncodedFile> {
  const mtime = stat.mtime?.getTime() ?? 0;
  const cached = files.get(path);
  if (cached && cached.mtime === mtime && cached.size === stat.size) return cached.file;
  const file = Deno.readFile(path).then(async (bytes) => {
    const hash = await hashOf(bytes);
    const made = await readVariants(variantsDir, hash);
    return encodeFile(bytes, contentType(path), `"${hash}"`, made);
  });
  files.set(path, { mtime, size: stat.size, file });
  file.catch(() => files.delete(path));
  return file;
}

/**
 * Reads and hashes the static files ahead of the first request, with their build-time variants
 * in `variantsDir`; resolves once every file is read (those without variants are compressed in
 * the background after that). Errors are left for serveStatic.
 */
export async function precompressStatic(
  paths: Iterable<string>,
  variantsDir: string | null,
): Promise<void> {
  await Promise.all(
    [...paths].map((path) =>
      Deno.stat(path).then((stat) => encodedFile(path, stat, variantsDir)).catch(() => {})
    ),
  );
}

/**
 * Answers a GET/HEAD for a static file: content-hash ETag per coding with 304 answers, brotli
 * or gzip per `Accept-Encoding` (compressed once per file version, not per request).
 */
export async function serveStatic(
  req: Request,
  url: URL,
  path: string,
  dev: boolean,
  variantsDir: string | null = null,
): Promise<Response> {
  const file = await encodedFile(path, await Deno.stat(path), variantsDir);
  const headers = new Headers({ "content-type": contentType(path), vary: "If-None-Match" });
  if (dev) headers.set("cache-control", "no-cache");
  else if (url.searchParams.has("__frsh_c")) {
    headers.set("cache-control", "public, max-age=31536000, immutable");
  }
  return serveEncoded(req, file, headers);
}
