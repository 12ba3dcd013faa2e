/** Field errors of the admin forms, from zod (client side) or from the API's `issues`. */
import type { ApiIssue } from "./admin_api.ts";

export type FieldErrors = Record<string, string>;

/** The first message per top-level field; issues without a path go under "_form". */
export function issuesToErrors(
  issues: readonly { path: PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : "_form";
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Same as issuesToErrors, for the API's issue list. */
export function apiIssuesToErrors(issues: ApiIssue[]): FieldErrors {
  return issuesToErrors(issues);
}
