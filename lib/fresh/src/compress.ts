/**
 * Content encoding: picks brotli or gzip from `Accept-Encoding`, compresses dynamic answers with a
 * fast level, and keeps build-time/start-time compressed variants of fixed files (island chunks,
 * static text files) so they are compressed once, not per request.
 */
import zlib from "node:zlib";

/** A content coding the server produces. */
export type Encoding = "br" | "gzip";

/** Dynamic bodies smaller than this are sent as they are: compressing would save next to nothing. */
export const MIN_COMPRESS_BYTES = 1024;
/**
 * Fixed files (compressed once, not per request) from this size on get encoded variants: a
 * 700-byte chunk still loses half its size to brotli, more than the header it adds.
 */
export const MIN_FIXED_COMPRESS_BYTES = 256;

/** Order of preference when the client accepts several codings equally, for fixed files. */
export const PREFER_SMALLEST: Encoding[] = ["br", "gzip"];
/**
 * Order of preference for dynamic answers: gzip at level 6 costs about a third of brotli's
 * (quality 4-5) time on our pages for 10-15% more bytes (bench/wire_bench.ts prints both).
 */
export const PREFER_FASTEST: Encoding[] = ["gzip", "br"];

/**
 * The coding to answer with, from an `Accept-Encoding` value: the acceptable one (q > 0, `*`
 * included) with the highest q, ties going to the earlier one in `prefer`; null for identity.
 * @example negotiate("gzip;q=0.5, br", PREFER_FASTEST) // "br"
 */
export function negotiate(header: string | null, prefer: Encoding[]): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key === "q") weight = Number(value);
    }
    if (!Number.isFinite(weight)) weight = 0;
    q.set(name.trim() === "x-gzip" ? "gzip" : name.trim(), weight);
  }
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const encoding of prefer) {
    const weight = q.get(encoding) ?? q.get("*") ?? 0;
    if (weight > bestQ) {
      best = encoding;
      bestQ = weight;
    }
  }
  return best;
}

/** Whether a content type is worth compressing (text, JSON, JS, XML, SVG; not images, woff2). */
export function isCompressible(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "text/event-stream") return false; // a stream: every event must go out at once
  return type.startsWith("text/") || type === "application/javascript" ||
    type === "application/json" || type.endsWith("+json") || type === "application/xml" ||
    type.endsWith("+xml") || type === "font/ttf" || type === "application/wasm";
}

function brotliOptions(quality: number, size: number): zlib.BrotliOptions {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

/** Compresses with a fast level: for answers made per request. */
export function compressFast(bytes: Uint8Array, encoding: Encoding): Uint8Array {
  return encoding === "br"
    ? zlib.brotliCompressSync(bytes, brotliOptions(4, bytes.length))
    : zlib.gzipSync(bytes, { level: 6 });
}

/**
 * Compresses with a middle level (brotli 6, gzip 9): for answers made once and sent many times
 * (the render cache), where quality 11 would cost too long on the request that makes them.
 * Brotli 6 takes ~10-20% more CPU than 5 (0.2-0.6 ms on a page) for 1% fewer bytes (65-100 on
 * a page), paid once per cached version.
 */
export function compressOnce(bytes: Uint8Array, encoding: Encoding): Uint8Array {
  return encoding === "br"
    ? zlib.brotliCompressSync(bytes, brotliOptions(6, bytes.length))
    : zlib.gzipSync(bytes, { level: 9 });
}

/** Compresses with the best level (brotli 11, gzip 9), synchronously: for build steps. */
export function compressMax(bytes: Uint8Array, encoding: Encoding): Uint8Array {
  return encoding === "br"
    ? zlib.brotliCompressSync(bytes, brotliOptions(11, bytes.length))
    : zlib.gzipSync(bytes, { level: 9 });
}

/**
 * Compresses with the best level (brotli 11, gzip 9) in a worker: seconds of CPU on a bundle, which
 * would block the event loop here. The worker stops once it has nothing left to do.
 */
export function compressBest(bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array> {
  const id = ++lastJob;
  return new Promise((resolve, reject) => {
    jobs.set(id, { resolve, reject });
    worker ??= startWorker();
    worker.postMessage({ id, bytes, encoding });
  });
}

type Pending = { resolve(bytes: Uint8Array): void; reject(err: unknown): void };
const jobs = new Map<number, Pending>();
let lastJob = 0;
let worker: Worker | null = null;

function startWorker(): Worker {
  const w = new Worker(new URL("./compress_worker.ts", import.meta.url), { type: "module" });
  const stop = (err?: unknown) => {
    if (err) { for (const job of jobs.values()) job.reject(err); }
    if (err) jobs.clear();
    if (jobs.size === 0 && worker === w) {
      worker = null;
      w.terminate();
    }
  };
  w.onmessage = (event: MessageEvent<{ id: number; bytes: Uint8Array }>) => {
    jobs.get(event.data.id)?.resolve(event.data.bytes);
    jobs.delete(event.data.id);
    stop();
  };
  w.onerror = (event) => {
    event.preventDefault();
    stop(new Error(`compression worker failed: ${event.message}`));
  };
  return w;
}

/** The ETag of an encoded variant: a strong tag gets the coding appended, a weak one is kept. */
export function encodedEtag(etag: string, encoding: Encoding | null): string {
  if (!encoding || etag.startsWith("W/")) return etag;
  return etag.replace(/"$/, `-${encoding}"`);
}

/** Adds `Accept-Encoding` to the `Vary` header (once). */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get("vary");
  if (!vary) headers.set("vary", "Accept-Encoding");
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) {
    headers.set("vary", `${vary}, Accept-Encoding`);
  }
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
}

/** One fixed body and its encoded variants, made once. */
export interface EncodedFile {
  etag: string;
  identity: Uint8Array;
  /** Whether variants are worth making (a compressible type, not tiny). */
  compressible: boolean;
  /** The variants made so far (a middle level at first use, the best level once ready). */
  encoded: Partial<Record<Encoding, Uint8Array>>;
}

/**
 * A fixed body (island chunk, static file) whose brotli and gzip variants are made once: taken
 * from `made` (variants written by the build step) or else at the best level in the compression
 * worker, starting now; until that is done, `serveEncoded` makes a middle-level variant on first
 * use, so no request waits for the worker.
 */
export function encodeFile(
  bytes: Uint8Array,
  contentType: string,
  etag: string,
  made: Partial<Record<Encoding, Uint8Array>> = {},
): EncodedFile {
  const compressible = isCompressible(contentType) && bytes.length >= MIN_FIXED_COMPRESS_BYTES;
  const file: EncodedFile = { etag, identity: bytes, compressible, encoded: { ...made } };
  if (!compressible) return file;
  for (const encoding of PREFER_SMALLEST) {
    if (file.encoded[encoding]) continue;
    compressBest(bytes, encoding).then((best) => {
      if (best.length < (file.encoded[encoding]?.length ?? Infinity)) file.encoded[encoding] = best;
    }, () => {}); // the middle-level variant stays
  }
  return file;
}

/**
 * Answers a GET/HEAD for a fixed file in the coding the client prefers, with a per-coding ETag,
 * `Vary: Accept-Encoding` and a 304 when `If-None-Match` matches (no ETag when the file is not
 * `revalidated`: cached for good under a name that changes with its content). `headers` holds
 * the rest (content type, cache control).
 */
export function serveEncoded(
  req: Request,
  file: EncodedFile,
  headers: Headers,
  { revalidated = true }: { revalidated?: boolean } = {},
): Response {
  let encoding: Encoding | null = null;
  if (file.compressible) {
    varyOnEncoding(headers);
    encoding = negotiate(req.headers.get("accept-encoding"), PREFER_SMALLEST);
    if (encoding && !file.encoded[encoding]) {
      file.encoded[encoding] = compressOnce(file.identity, encoding);
    }
    if (encoding && file.encoded[encoding]!.length >= file.identity.length) encoding = null;
  }
  // A file cached for good is never asked for again: an ETag would only cost bytes.
  if (revalidated) {
    const etag = encodedEtag(file.etag, encoding);
    headers.set("etag", etag);
    if (ifNoneMatch(req.headers.get("if-none-match"), etag)) {
      return new Response(null, { status: 304, headers });
    }
  }
  const body = encoding ? file.encoded[encoding]! : file.identity;
  if (encoding) headers.set("content-encoding", encoding);
  headers.set("content-length", String(body.length));
  return new Response(req.method === "HEAD" ? null : body as BodyInit, { headers });
}

/** Statuses whose body may be compressed (not 101/204/206/304, which have none or a range). */
function hasCompressibleStatus(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 206 && status !== 304;
}

/**
 * Compresses a dynamic answer (HTML, JSON, …) per `Accept-Encoding` with a fast level. Left as
 * is: HEAD answers, answers already encoded or marked `Cache-Control: no-transform`, streams
 * (`text/event-stream`), incompressible types and bodies under `MIN_COMPRESS_BYTES`.
 */
export async function compressResponse(req: Request, res: Response): Promise<Response> {
  if (!res.body || req.method === "HEAD" || !hasCompressibleStatus(res.status)) return res;
  if (res.headers.has("content-encoding")) return res;
  if (!isCompressible(res.headers.get("content-type"))) return res;
  if (/\bno-transform\b/i.test(res.headers.get("cache-control") ?? "")) return res;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  const init = { status: res.status, statusText: res.statusText, headers };
  headers.set("content-length", String(bytes.length));
  if (bytes.length < MIN_COMPRESS_BYTES) return new Response(bytes, init);
  varyOnEncoding(headers);
  const encoding = negotiate(req.headers.get("accept-encoding"), PREFER_FASTEST);
  if (!encoding) return new Response(bytes, init);
  const body = compressFast(bytes, encoding);
  headers.set("content-encoding", encoding);
  headers.set("content-length", String(body.length));
  const etag = headers.get("etag");
  if (etag) headers.set("etag", encodedEtag(etag, encoding));
  return new Response(body as BodyInit, init);
}
