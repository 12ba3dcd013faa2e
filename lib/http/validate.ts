/** Request body parsing: size limit, JSON decoding and zod validation in one call. */
import type * as z from "zod/mini";
import { zodIssues } from "@/lib/domain/schemas/fields.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";
import { HttpError, PayloadTooLargeError, UnsupportedMediaTypeError } from "./errors.ts";

const DEFAULT_MAX_BYTES = 64 * 1024;

/**
 * Reads the request body as JSON and validates it with `schema`.
 * Throws 415 when the Content-Type names another format, 413 when the body exceeds `maxBytes`,
 * 400 'Invalid JSON body' when it does not parse, and 400 with the zod issues (message = the
 * first issue's) when it does not validate.
 */
export async function readJson<S extends z.ZodMiniType>(
  req: Request,
  schema: S,
  { maxBytes = DEFAULT_MAX_BYTES }: { maxBytes?: number } = {},
): Promise<z.output<S>> {
  assertJsonContentType(req);
  const text = await readText(req, maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidInputError("Invalid JSON body");
  }
  return parseWith(schema, body);
}

/** Validates an already decoded value; throws InvalidInputError carrying the zod issues. */
export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = zodIssues(result.error);
  throw new InvalidInputError(issues[0]?.message ?? "Invalid request", issues);
}

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

/**
 * The request body as text; 413 when it is larger than `maxBytes` (what the client sends of it
 * is read and dropped first, up to DRAIN_MAX_BYTES, so that it hears the answer), 408 when it
 * has not fully arrived `timeoutMs` after the read started (the connection is then dropped).
 */
export async function readText(
  req: Request,
  maxBytes = DEFAULT_MAX_BYTES,
  timeoutMs = BODY_TIMEOUT_MS,
): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (!req.body) {
    if (declared > maxBytes) throw new PayloadTooLargeError();
    return "";
  }
  const reader = req.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HttpError(408, "Request body took too long")), timeoutMs);
  });
  const read = () => Promise.race([reader.read(), timedOut]);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (declared > DRAIN_MAX_BYTES) throw new PayloadTooLargeError();
    while (true) {
      const { done, value } = await read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes || declared > maxBytes) {
        await drain(DRAIN_MAX_BYTES - size, read);
        throw new PayloadTooLargeError();
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
  return new TextDecoder().decode(bytes);
}
