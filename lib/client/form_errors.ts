/** Field errors of the forms, from zod (client side) or from the API's `issues`. */

export type FieldErrors = Record<string, string>;

/** The first message per top-level field; issues without a path go under "_form". */
export function issuesToErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : "_form";
    errors[key] ??= issue.message;
  }
  return errors;
}
