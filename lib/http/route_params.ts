/** Path parameter parsing shared by the public and admin pages. */
import type { Handlers } from "$fresh/server.ts";

/** A positive integer id from a path parameter, or null (pages then show their not-found state). */
export function pageId(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  return Number(value);
}

/**
 * The handler of a page about one record: renders with the numeric `:id`, else the 404 page.
 * @example export const handler = idPageHandler;
 */
export const idPageHandler: Handlers<number> = {
  GET(_req, ctx) {
    const id = pageId(ctx.params.id);
    return id ? ctx.render(id) : ctx.renderNotFound();
  },
};
