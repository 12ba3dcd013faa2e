/**
 * The errors the domain, data, payment and auth layers throw. They know nothing of HTTP: one
 * plugin (`lib/http/errors.ts`, `apiErrorsPlugin`) maps them to statuses and JSON answers.
 */

/** One validation problem: the field path and the reason. */
export interface Issue {
  path: (string | number)[];
  message: string;
}

/** Base of every domain error; `issues` carries field problems of invalid input. */
export class DomainError extends Error {
  constructor(message: string, readonly issues?: Issue[]) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input breaks a rule (a field's format, a team's composition, …). */
export class InvalidInputError extends DomainError {}

/**
 * Invalid input about one field: the message, repeated as that field's issue.
 * @example throw fieldError("matchId", "Match 7 does not exist.");
 */
export function fieldError(field: string, message: string): InvalidInputError {
  return new InvalidInputError(message, [{ path: [field], message }]);
}

/** The record asked for does not exist. */
export class NotFoundError extends DomainError {
  constructor(message = "Not found") {
    super(message);
  }
}

/** The request contradicts the current state (closed competition, duplicate, in use, …). */
export class ConflictError extends DomainError {}

/** No valid credentials or session. */
export class UnauthorizedError extends DomainError {
  constructor(message = "Authentication required") {
    super(message);
  }
}

/** The payment was declined or has not been completed. */
export class PaymentNotCompletedError extends DomainError {}

/** An outside service (payment provider, mail server) failed or refused; not the caller's fault. */
export class UpstreamError extends DomainError {}

/** Too many attempts in a short time; try again after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  constructor(
    message = "Too many attempts. Please wait and try again.",
    readonly retryAfterSeconds = 60,
  ) {
    super(message);
  }
}
