/**
 * Browser calls to the admin API, through the shared JSON client (`apiFetch`): the session cookie
 * is always sent and the password is never kept in browser storage. A 401 sends
 * the admin to the login page, which then shows 'Authentication Required'.
 */
import { ApiError, apiFetch } from "@/lib/client/api.ts";

export const LOGIN_PATH = "/admin/login";
const AUTH_REQUIRED_PATH = "/admin/login?auth=required";
export const UNEXPECTED_ERROR = "An unexpected error occurred";

export interface AdminFetchOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** When false a 401 is thrown like any other error instead of redirecting (the login form). */
  redirectOn401?: boolean;
}

/**
 * Calls the admin API and returns the decoded JSON answer. A JSON body and content type are sent
 * only with a payload. Throws ApiError for a non-2xx answer (after redirecting on 401).
 * @example const rows = await adminFetch<Competition[]>("/api/admin/competitions");
 */
export async function adminFetch<T>(path: string, opts: AdminFetchOptions = {}): Promise<T> {
  try {
    return await apiFetch<T>(path, { method: opts.method ?? "GET", json: opts.body });
  } catch (err) {
    if (isUnauthorized(err) && opts.redirectOn401 !== false) location.assign(AUTH_REQUIRED_PATH);
    throw err;
  }
}

/**
 * The text to show for a failed call: the server's message, else `fallback` for an API error,
 * else 'An unexpected error occurred' for an exception (network, bug).
 */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback;
  return UNEXPECTED_ERROR;
}

/** True when the error is the API's 401 answer. */
export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

/** True when the error is the API's 404 answer (the record does not exist). */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}
