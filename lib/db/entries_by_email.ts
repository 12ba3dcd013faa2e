/**
 * "Find my entries": the entries of one e-mail address, through the index
 * `["entries_by_email", email (lower case), entryId]` that createEntry writes.
 */
import type { Entry } from "@/lib/domain/types.ts";
import { isKeyText, keys } from "./keys.ts";
import { getManyValues, listValues } from "./util.ts";

const BACKFILL_MARKER: Deno.KvKey = ["meta", "entries_by_email_v1"];

/** Every entry paid with this e-mail address (any case), oldest first. */
export async function listEntriesByEmail(kv: Deno.Kv, email: string): Promise<Entry[]> {
  if (!isKeyText(email)) return [];
  const ids = await listValues<number>(kv, keys.entriesByEmail(email));
  const entries = await getManyValues<Entry>(kv, ids.map(keys.entry));
  // Ids ascend per competition (entry_writes.ts), not across them: order by time.
  return entries.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/**
 * Migration: indexes by e-mail the entries made before the index existed. Runs once per store
 * (a marker says it is done); repeating it, or running it twice at once, writes the same keys.
 */
export async function migrateEntriesByEmail(kv: Deno.Kv): Promise<number> {
  if ((await kv.get(BACKFILL_MARKER)).value !== null) return 0;
  let indexed = 0;
  for await (const { value } of kv.list<Entry>({ prefix: ["entries"] })) {
    if (!isKeyText(value.email)) continue;
    await kv.set(keys.entryByEmail(value.email, value.id), value.id);
    indexed++;
  }
  await kv.set(BACKFILL_MARKER, new Date().toISOString());
  return indexed;
}
