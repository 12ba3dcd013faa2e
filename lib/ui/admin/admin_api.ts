/**
 * Browser calls to the admin API. Every call sends the session cookie (`credentials: "include"`);
 * the password is never kept in browser storage (ARCHITECTURE §5). A 401 sends the admin to the
 * login page, which then shows 'Authentication Required'.
 */

/** One validation problem as the API reports it. */
export interface ApiIssue {
  path: (string | number)[];
  message: string;
}

/**
 * A non-successful answer of the admin API. Its message is SPEC §7's "{status}: {body text}"
 * (the status text when the body is empty); `serverMessage` is the body's `message` field, if any.
 */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
    readonly issues: ApiIssue[] = [],
    bodyText = "",
  ) {
    super(`${status}: ${bodyText || serverMessage || ""}`);
    this.name = "AdminApiError";
  }
}

export const LOGIN_PATH = "/admin/login";
export const AUTH_REQUIRED_PATH = "/admin/login?auth=required";
export const UNEXPECTED_ERROR = "An unexpected error occurred";

export interface AdminFetchOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** When false a 401 is thrown like any other error instead of redirecting (the login form). */
  redirectOn401?: boolean;
}

/** Sends the admin to the login page, which shows the 'Authentication Required' toast. */
export function redirectToLogin(): void {
  location.assign(AUTH_REQUIRED_PATH);
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageField(body: unknown): string | null {
  if (body && typeof body === "object" && "message" in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === "string" && message.trim()) return message;
  }
  return null;
}

function issuesField(body: unknown): ApiIssue[] {
  if (body && typeof body === "object" && "issues" in body) {
    const issues = (body as { issues: unknown }).issues;
    if (Array.isArray(issues)) return issues as ApiIssue[];
  }
  return [];
}

/**
 * Calls the admin API and returns the decoded JSON answer. A JSON body and content type are sent
 * only with a payload. Throws AdminApiError for a non-2xx answer (after redirecting on 401).
 * @example const rows = await adminFetch<Competition[]>("/api/admin/competitions");
 */
export async function adminFetch<T>(path: string, opts: AdminFetchOptions = {}): Promise<T> {
  const init: RequestInit = { method: opts.method ?? "GET", credentials: "include" };
  if (opts.body !== undefined) {
    init.body = JSON.stringify(opts.body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await fetch(path, init);
  const text = await res.text();
  const body = parseBody(text);
  if (res.ok) return body as T;
  if (res.status === 401 && opts.redirectOn401 !== false) redirectToLogin();
  throw new AdminApiError(
    res.status,
    messageField(body),
    issuesField(body),
    text || res.statusText,
  );
}

/**
 * The text to show for a failed call: the server's message, else `fallback` for an API error,
 * else 'An unexpected error occurred' for an exception (network, bug).
 */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof AdminApiError) return err.serverMessage ?? fallback;
  return UNEXPECTED_ERROR;
}

/** True when the error is the API's 401 answer. */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof AdminApiError && err.status === 401;
}

/** True when the error is the API's 404 answer (the record does not exist). */
export function isNotFound(err: unknown): boolean {
  return err instanceof AdminApiError && err.status === 404;
}
