/** The per-competition change marker `["live", cid]` that the WebSocket hub watches. */
import { keys } from "./keys.ts";
import { touch } from "./touch.ts";

/** `touch(op, { competition: cid })`: an event, performance, entry or competition write. */
export function bumpLive(op: Deno.AtomicOperation, cid: number): Deno.AtomicOperation {
  return touch(op, { competition: cid });
}

/** The current versionstamp of `["live", cid]` (null before the first change); it moves on every bump. */
export async function getLiveVersion(kv: Deno.Kv, cid: number): Promise<string | null> {
  const entry = await kv.get(keys.live(cid));
  return entry.versionstamp;
}
