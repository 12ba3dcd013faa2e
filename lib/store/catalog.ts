/** The change marker `["catalog"]`: players, teams and matches, shown on every competition page. */
import { touch } from "./touch.ts";

/** `touch(op, "catalog")`: a player, team or match write. */
export function bumpCatalog(op: Deno.AtomicOperation): Deno.AtomicOperation {
  return touch(op, "catalog");
}
