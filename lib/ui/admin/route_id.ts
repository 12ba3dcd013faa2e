/** A positive integer route parameter, or null (the page then shows its not-found state). */
export function routeId(value: string | undefined | null): number | null {
  return value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}
