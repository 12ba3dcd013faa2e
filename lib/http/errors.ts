/**
 * Typed HTTP errors. Handlers and lib code throw them; one middleware
 * (routes/_middleware.ts, via `errorResponse`) maps them to JSON `{message, issues?}`.
 */

/** One validation problem: the field path and the reason. */
export interface Issue {
  path: (string | number)[];
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, issues?: Issue[]) {
    super(400, message, issues);
  }
}

/**
 * A 400 about one field: the message, repeated as that field's issue.
 * @example throw fieldError("matchId", "Match 7 does not exist.");
 */
export function fieldError(field: string, message: string): BadRequestError {
  return new BadRequestError(message, [{ path: [field], message }]);
}

export class UnauthorizedError extends HttpError {
  constructor(message = "Authentication required") {
    super(401, message);
  }
}
export class PaymentRequiredError extends HttpError {
  constructor(message: string) {
    super(402, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = "Forbidden") {
    super(403, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = "Not found") {
    super(404, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
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
/** An upstream service (payment provider, mail server) failed or refused; not the client's fault. */
export class BadGatewayError extends HttpError {
  constructor(message: string) {
    super(502, message);
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(
    message = "Too many attempts. Please wait and try again.",
    readonly retryAfterSeconds = 60,
  ) {
    super(429, message);
  }
}

/** JSON response with the right content type. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** Maps any thrown value to a JSON error response; unknown errors become a logged 500. */
export function errorResponse(err: unknown): Response {
  if (err instanceof HttpError) {
    const body: { message: string; issues?: Issue[] } = { message: err.message };
    if (err.issues) body.issues = err.issues;
    const headers: Record<string, string> = {};
    if (err instanceof TooManyRequestsError) headers["retry-after"] = String(err.retryAfterSeconds);
    return json(body, { status: err.status, headers });
  }
  console.error(err);
  return json({ message: "Internal server error" }, { status: 500 });
}
