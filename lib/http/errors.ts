/**
 * The one place errors become HTTP answers. `errorInit` maps a thrown domain error
 * (lib/domain/errors.ts) or HTTP error to its status; `apiErrorsPlugin` wraps every /api route and
 * answers JSON `{message, issues?}` with it (and a bare 405 as a JSON one with its Allow header);
 * pages answer the `_404` or `_500` page with it (`routes/_500.tsx`). Unknown errors are logged and
 * answer 500. Error answers are never cached.
 */
import type { FreshContext, Plugin } from "$fresh/server.ts";
import {
  ConflictError,
  DomainError,
  InvalidInputError,
  type Issue,
  NotFoundError,
  PaymentNotCompletedError,
  TooManyRequestsError,
  UnauthorizedError,
  UpstreamError,
} from "@/lib/domain/errors.ts";

/** An error about the HTTP exchange itself (headers, body size), thrown by routes and lib/http. */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = new.target.name;
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = "Forbidden") {
    super(403, message);
  }
}
export class PayloadTooLargeError extends HttpError {
  constructor(message = "Request body too large") {
    super(413, message);
  }
}
export class UnsupportedMediaTypeError extends HttpError {
  constructor(message = "Content-Type must be application/json") {
    super(415, message);
  }
}

/** JSON response with the right content type. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** Status of each domain error (subclasses inherit their parent's). */
const STATUS = new Map<abstract new (...args: never[]) => DomainError, number>([
  [InvalidInputError, 400],
  [UnauthorizedError, 401],
  [PaymentNotCompletedError, 402],
  [NotFoundError, 404],
  [ConflictError, 409],
  [TooManyRequestsError, 429],
  [UpstreamError, 502],
]);

/** The HTTP status of a domain error (500 for one the table does not know). */
export function statusOf(err: DomainError): number {
  for (const [type, status] of STATUS) if (err instanceof type) return status;
  return 500;
}

/**
 * Status and headers of the answer to any thrown value: an HTTP error's own status, a domain
 * error's (with Retry-After when throttled), else 500. Error answers are never cached. API (JSON)
 * and page (HTML) answers both take them from here.
 */
export function errorInit(err: unknown): { status: number; headers: Headers } {
  const headers = new Headers({ "cache-control": "no-store" });
  if (err instanceof HttpError) return { status: err.status, headers };
  if (!(err instanceof DomainError)) return { status: 500, headers };
  if (err instanceof TooManyRequestsError) {
    headers.set("retry-after", String(err.retryAfterSeconds));
  }
  return { status: statusOf(err), headers };
}

/** Maps any thrown value to a JSON error response; unknown errors become a logged 500. */
export function errorResponse(err: unknown): Response {
  const { status, headers } = errorInit(err);
  if (err instanceof HttpError) return json({ message: err.message }, { status, headers });
  if (status === 500) console.error(err);
  if (!(err instanceof DomainError)) {
    return json({ message: "Internal server error" }, { status, headers });
  }
  const body: { message: string; issues?: Issue[] } = { message: err.message };
  if (err.issues) body.issues = err.issues;
  return json(body, { status, headers });
}

/** Runs the rest of an /api request and answers its errors as JSON. */
async function apiErrors(_req: Request, ctx: FreshContext): Promise<Response> {
  let res: Response;
  try {
    res = await ctx.next();
  } catch (err) {
    return errorResponse(err);
  }
  if (res.status !== 405 || res.headers.get("content-type")?.includes("json")) return res;
  await res.body?.cancel();
  // Fresh answers a bare 405 listing the route's methods in `Accept`; HTTP names them in `Allow`.
  const allow = res.headers.get("allow") ?? res.headers.get("accept") ?? "";
  return json({ message: "Method not allowed" }, { status: 405, headers: { allow } });
}

/** The plugin mapping every /api error to its JSON answer (in fresh.config.ts). */
export const apiErrorsPlugin: Plugin = {
  name: "api-errors",
  middlewares: [{ path: "/api", middleware: { handler: apiErrors } }],
};
