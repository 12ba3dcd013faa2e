/**
 * The change markers of what visitors see. Every write that changes a public answer (a page or
 * a public GET API) adds `touch(op, scope)` to its own atomic, and the render cache reads only
 * these markers to know whether a kept answer still holds:
 * - `["public"]` moves on every public write but a sale (the competition list shows every
 *   competition), and on a sale that fills its competition (see `touchSale`);
 * - `["live", cid]` moves on writes of one competition (its record, players, entries, events,
 *   performances, prizes), and is what the live feed watches;
 * - `["catalog"]` moves on writes of clubs, players and matches (every competition page shows some).
 *
 * The markers are `sum` mutations, never checked, so concurrent writers of one marker do not
 * conflict with each other on a remote store (only their own records' checks decide).
 */
import { keys } from "./keys.ts";

/** What a public write changed: one competition's data, or the catalog. */
export type PublicScope = { competition: number } | "catalog";

/**
 * Adds the markers of `scope` to an atomic; call it in every write of public data.
 * @example await touch(kv.atomic().check(entry).set(key, player), "catalog").commit();
 */
export function touch(op: Deno.AtomicOperation, scope: PublicScope): Deno.AtomicOperation {
  op.sum(keys.publicVersion(), 1n);
  return scope === "catalog"
    ? op.sum(keys.catalog(), 1n)
    : op.sum(keys.live(scope.competition), 1n);
}

/**
 * Adds the markers a sale moves: the competition's own (`["live", cid]`: its pages and live feed
 * show its count), and `["public"]` only when the sale changes the competition's card beyond its
 * count (`filled`: it became full, so it leaves the Open tab). So a rush of sales leaves the
 * cached competition list (`/`, `/api/competitions`) and every other competition's pages cached;
 * the counts on the list follow within one render-cache slot (lib/render_cache.ts).
 */
export function touchSale(
  op: Deno.AtomicOperation,
  cid: number,
  filled: boolean,
): Deno.AtomicOperation {
  if (filled) op.sum(keys.publicVersion(), 1n);
  return op.sum(keys.live(cid), 1n);
}
