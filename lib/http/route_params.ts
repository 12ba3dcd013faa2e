/** Path parameter parsing shared by the public and admin pages. */
import type { Handlers } from "$fresh/server.ts";
import type { State } from "@/lib/services.ts";

/** A positive integer id from a path parameter, or null (pages then show their not-found state). */
export function pageId(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  return Number(value);
}

/**
 * The handler of an admin page about one record: renders with the numeric `:id`, with status 404
 * when the id is malformed or `exists` finds no such record (the page's island then shows its
 * 'Not Found' state).
 * @example export const handler = recordPageHandler(getCompetition);
 */
export function recordPageHandler(
  exists: (kv: Deno.Kv, id: number) => Promise<unknown>,
): Handlers<number, State> {
  return {
    async GET(_req, ctx) {
      const id = pageId(ctx.params.id);
      if (id !== null && await exists(ctx.state.services.kv, id)) return ctx.render(id);
      return ctx.render(id ?? 0, { status: 404 });
    },
  };
}
