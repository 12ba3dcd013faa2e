/**
 * The browser's JSON client for our API: cookies always sent, a JSON body and
 * content type only when there is a payload, and every non-2xx answer thrown as an error whose
 * message is `${status}: ${body text || statusText}`.
 */

/** A non-2xx answer; `message` is "status: body", `body` keeps the raw text for field issues. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: string, statusText: string) {
    super(`${status}: ${body || statusText}`);
    this.name = "ApiError";
  }

  /** The `message` field of a JSON error body, or null (also for a blank one). */
  get serverMessage(): string | null {
    const message = parseJson<{ message?: unknown }>(this.body)?.message;
    return typeof message === "string" && message.trim() ? message : null;
  }

  /** The zod issues of a 400 answer (`{path, message}`), or []. */
  get issues(): { path: (string | number)[]; message: string }[] {
    const issues = parseJson<{ issues?: unknown }>(this.body)?.issues;
    return Array.isArray(issues) ? issues : [];
  }
}

export interface ApiInit extends Omit<RequestInit, "body"> {
  /** A value to send as JSON; leave unset to send no body. */
  json?: unknown;
}

function parseJson<T>(text: string): T | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value as T : null;
  } catch {
    return null;
  }
}

/**
 * Calls our API and returns the decoded JSON answer (null for an empty body).
 * @example const list = await apiFetch<Competition[]>("/api/competitions");
 * @example await apiFetch("/api/entries", { method: "POST", json: body });
 */
export async function apiFetch<T>(path: string, init: ApiInit = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  const sendsBody = json !== undefined;
  const requestHeaders = new Headers(headers);
  if (sendsBody) requestHeaders.set("content-type", "application/json");
  const res = await fetch(path, {
    credentials: "include",
    ...rest,
    headers: requestHeaders,
    body: sendsBody ? JSON.stringify(json) : undefined,
  });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The `message` of a failed answer's JSON body, else its text, else null. */
export async function readErrorMessage(res: Response): Promise<string | null> {
  const text = await res.text().catch(() => "");
  const message = parseJson<{ message?: unknown }>(text)?.message;
  if (typeof message === "string" && message) return message;
  return text.trim() || null;
}
