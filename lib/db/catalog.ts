/** The change marker `["catalog"]`: players, teams and matches, shown on every competition page. */
import { keys } from "./keys.ts";

/** Adds a bump of `["catalog"]` to an atomic: call it in every player, team or match update. */
export function bumpCatalog(op: Deno.AtomicOperation): Deno.AtomicOperation {
  return op.sum(keys.catalog(), 1n);
}
