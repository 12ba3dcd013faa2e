/** Request body parsing: size limit, JSON decoding and zod validation in one call. */
import type * as z from "zod/mini";
import { parseWith } from "@/lib/domain/schemas/fields.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";
import { HttpError, PayloadTooLargeError, UnsupportedMediaTypeError } from "./errors.ts";

const DEFAULT_MAX_BYTES = 64 * 1024;

/**
 * Reads the request body as JSON and validates it with `schema`.
 * Throws 415 when the Content-Type names another format, 413 when the body exceeds `maxBytes`
 * (with the message `tooLarge`), 400 when it is not UTF-8, 400 'Invalid JSON body' when it does
 * not parse, and 400 with the zod issues (message = the first issue's) when it does not validate.
 */
export async function readJson<S extends z.ZodMiniType>(
  req: Request,
  schema: S,
  { maxBytes = DEFAULT_MAX_BYTES, tooLarge, notUtf8 = "refuse" }: {
    maxBytes?: number;
    tooLarge?: string;
    /**
     * "replace": bytes that are not UTF-8 become U+FFFD, for a route that refuses them itself
     * with a better message (an import names the file and row).
     */
    notUtf8?: "refuse" | "replace";
  } = {},
): Promise<z.output<S>> {
  assertJsonContentType(req);
  const text = notUtf8 === "refuse"
    ? await readText(req, maxBytes, { tooLarge })
    : new TextDecoder().decode(await readBytes(req, maxBytes, { tooLarge }));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidInputError("Invalid JSON body");
  }
  return parseWith(schema, body);
}

export { parseWith };

/**
 * 415 unless the request's Content-Type is JSON (`application/json` or `…+json`). A request
 * without one is read as JSON; a form or text/plain post (what a cross-site form can send
 * without a preflight) is refused before its body is read.
 */
export function assertJsonContentType(req: Request): void {
  const type = req.headers.get("content-type");
  if (type === null) return;
  const media = type.split(";")[0].trim().toLowerCase();
  if (media === "application/json" || /^application\/[\w.+-]+\+json$/.test(media)) return;
  throw new UnsupportedMediaTypeError();
}

/**
 * Parses a numeric path parameter: a positive safe integer. Anything else is a 400 'Invalid id'
 * whose issue names the parameter (`name`, default "id").
 */
export function parseId(value: string | undefined, name = "id"): number {
  const id = /^[1-9]\d{0,15}$/.test(value ?? "") ? Number(value) : NaN;
  if (Number.isSafeInteger(id)) return id;
  throw new InvalidInputError("Invalid id", [{ path: [name], message: "Invalid id" }]);
}

/** How long a client may take to send a whole request body (a slow drip ties up the server). */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * The most of an oversized body that is still read (and dropped) before the 413 is sent. A
 * server that answers while the request is still arriving and then closes makes the kernel reset
 * the connection, and the client may see the reset instead of the 413 (Deno 2.5's `Deno.serve`,
 * which Deno Deploy runs, does so). Past this much the connection is closed unread.
 */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024;

/** Reads on to the body's end (the bytes dropped), or until `limit` more bytes came. */
async function drain(
  limit: number,
  read: () => Promise<ReadableStreamReadResult<Uint8Array>>,
): Promise<void> {
  let size = 0;
  while (size <= limit) {
    const { done, value } = await read();
    if (done) return;
    size += value.byteLength;
  }
}

/** A body larger than the cap of the read that took it (its bytes were dropped). */
const TOO_LARGE = Symbol("too large");

/**
 * Each request's body, read once: the admin log and the handler share one read (a `clone()`
 * read and cancelled beside the handler's stalled the handler's read on both servers).
 */
const bodies = new WeakMap<Request, Promise<Uint8Array | typeof TOO_LARGE>>();

export interface ReadBodyOptions {
  /** How long the whole body may take to arrive (408 after). */
  timeoutMs?: number;
  /** The 413's message (default "Request body too large"). */
  tooLarge?: string;
}

/**
 * The request body's bytes, read once per request whoever asks (later calls get the same bytes);
 * 413 when it is larger than `maxBytes`, 408 when it has not fully arrived `timeoutMs` after the
 * read started. The first read's cap bounds every later one: a body over it is not kept, so the
 * first reader of a route must use the largest cap the route accepts.
 */
export async function readBytes(
  req: Request,
  maxBytes = DEFAULT_MAX_BYTES,
  { timeoutMs = BODY_TIMEOUT_MS, tooLarge }: ReadBodyOptions = {},
): Promise<Uint8Array> {
  let read = bodies.get(req);
  if (!read) {
    read = readOnce(req, maxBytes, timeoutMs);
    bodies.set(req, read);
  }
  const bytes = await read;
  if (bytes === TOO_LARGE || bytes.byteLength > maxBytes) throw new PayloadTooLargeError(tooLarge);
  return bytes;
}

/**
 * The request body as UTF-8 text (see readBytes); 400 when it is not valid UTF-8 (a Latin-1
 * file would otherwise be saved with U+FFFD in place of its accented letters).
 */
export async function readText(
  req: Request,
  maxBytes = DEFAULT_MAX_BYTES,
  options: ReadBodyOptions = {},
): Promise<string> {
  return decodeUtf8(await readBytes(req, maxBytes, options), "The request body");
}

/** `bytes` as text; 400 "<what> is not valid UTF-8 text" when they are not. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidInputError(
      `${what} is not valid UTF-8 text: save it as UTF-8 and try again`,
    );
  }
}

/**
 * Reads the body whole, or up to just past `maxBytes` (TOO_LARGE; what the client sends of it is
 * then read and dropped, up to DRAIN_MAX_BYTES, so that it hears the answer, and a body declared
 * larger than that is not read at all).
 */
async function readOnce(
  req: Request,
  maxBytes: number,
  timeoutMs: number,
): Promise<Uint8Array | typeof TOO_LARGE> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (!req.body) return declared > maxBytes ? TOO_LARGE : new Uint8Array(0);
  const reader = req.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HttpError(408, "Request body took too long")), timeoutMs);
  });
  const read = () => Promise.race([reader.read(), timedOut]);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (declared > DRAIN_MAX_BYTES) {
      reader.cancel().catch(() => undefined);
      return TOO_LARGE;
    }
    while (true) {
      const { done, value } = await read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes || declared > maxBytes) {
        await drain(DRAIN_MAX_BYTES - size, read);
        reader.cancel().catch(() => undefined);
        return TOO_LARGE;
      }
      chunks.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => undefined);
    throw err;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
