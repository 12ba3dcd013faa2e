/** Path parameter parsing shared by the public pages. */

/** A positive integer id from a path parameter, or null (pages then show their not-found state). */
export function pageId(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  return Number(value);
}

/** A decoded text path parameter; a malformed escape gives the raw text. */
export function pageText(value: string | undefined): string {
  try {
    return decodeURIComponent(value ?? "");
  } catch {
    return value ?? "";
  }
}
