/**
 * "Find my entries": the entries of one e-mail address, through the index
 * `["entries_by_email", email (lower case), entryId]` that createEntry writes.
 */
import type { Entry } from "@/lib/domain/types.ts";
import { personOf, picksSignature } from "@/lib/domain/paid_entry.ts";
import { nameSkeleton } from "@/lib/domain/display_name.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { getManyValues, listValues } from "@/lib/store/util.ts";

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

/** How an older spelling of `personOf` keyed a person: the e-mail, trimmed and lower case. */
const oldPersonOf = (email: string) => email.trim().toLowerCase();

/**
 * Migration: re-keys the per-person indexes (`["entries_by_person", cid, person]`, the count the
 * entry limit reads, and `["team_by_person", cid, person, picks]`) from the e-mail's spelling
 * (trimmed, lower case) to the person `personOf` gives (no +tag, no Gmail dots), so entries made
 * before count toward the same person as new ones. Idempotent: counts are taken from the entries
 * themselves, never below what is stored under the new key (an entry committed meanwhile).
 */
export async function migratePersonKeys(kv: Deno.Kv): Promise<number> {
  const counts = new Map<string, { cid: number; person: string; n: number }>();
  const stale: Deno.KvKey[] = [];
  const teams: [Deno.KvKey, number][] = [];
  for await (const { value: entry } of kv.list<Entry>({ prefix: ["entries"] })) {
    if (typeof entry?.email !== "string" || !isKeyText(entry.email)) continue;
    const cid = entry.competitionId;
    const person = personOf(entry.email);
    const old = oldPersonOf(entry.email);
    const signature = picksSignature(entry.playerIds);
    const counted = counts.get(`${cid}|${person}`) ?? { cid, person, n: 0 };
    counted.n++;
    counts.set(`${cid}|${person}`, counted);
    teams.push([keys.personTeam(cid, person, signature), entry.id]);
    if (old !== person) {
      stale.push(keys.personEntries(cid, old), keys.personTeam(cid, old, signature));
    }
  }
  for (const { cid, person, n } of counts.values()) {
    const key = keys.personEntries(cid, person);
    for (;;) {
      const current = await kv.get<number>(key);
      const res = await kv.atomic().check(current).set(key, Math.max(n, current.value ?? 0))
        .commit();
      if (res.ok) break;
    }
  }
  for (const [key, id] of teams) await kv.set(key, id);
  for (const key of stale) await kv.delete(key);
  return counts.size;
}

/**
 * Migration: records the display name of every entry made before names were unique in a
 * competition (`["team_name_by_competition", cid, skeleton]`), so a new entry cannot take one of
 * theirs. Where older entries already share a name, the first (lowest id) holds it; the others
 * keep theirs. Idempotent: a name already recorded is left as it is.
 */
export async function migrateDisplayNames(kv: Deno.Kv): Promise<number> {
  let recorded = 0;
  for await (const { value: entry } of kv.list<Entry>({ prefix: ["entries"] })) {
    if (typeof entry?.teamName !== "string") continue;
    const key = keys.teamNameInCompetition(entry.competitionId, nameSkeleton(entry.teamName));
    if (!isKeyText(String(key[2]))) continue;
    const res = await kv.atomic().check({ key, versionstamp: null }).set(key, entry.id).commit();
    if (res.ok) recorded++;
  }
  return recorded;
}
