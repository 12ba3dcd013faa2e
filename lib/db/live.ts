/** The per-competition change marker `["live", cid]` that the WebSocket hub watches. */
import { keys } from "./keys.ts";

/** Adds a bump of `["live", cid]` to an atomic: call it in every event, performance or entry write. */
export function bumpLive(op: Deno.AtomicOperation, cid: number): Deno.AtomicOperation {
  return op.sum(keys.live(cid), 1n);
}

/** The current versionstamp of `["live", cid]` (null before the first change); it moves on every bump. */
export async function getLiveVersion(kv: Deno.Kv, cid: number): Promise<string | null> {
  const entry = await kv.get(keys.live(cid));
  return entry.versionstamp;
}
