/**
 * Lean reads of a competition's entries for the leaderboard: the full read the roster backfill
 * makes once per competition (roster.ts), and the team id lookups of the leaderboard cache.
 */
import type { Entry } from "@/lib/domain/types.ts";
import { GET_MANY_LIMIT, keys } from "./keys.ts";
import { chunk, getManyEntries } from "./util.ts";

const LIST_BATCH = 1000;
/** Parallel `getMany` calls in flight when entries are too scattered for a range scan. */
const GET_MANY_PARALLEL = 64;
/** A range scan over `["entries"]` pays off when at least this share of the range is ours. */
const MIN_RANGE_DENSITY = 0.5;

/** Ids of the competition's entries above `afterId`, ascending. */
async function listEntryIdsAfter(
  kv: Deno.Kv,
  cid: number,
  afterId = 0,
): Promise<number[]> {
  const ids: number[] = [];
  const iter = kv.list<number>(
    { prefix: keys.entriesByCompetition(cid), start: keys.entryByCompetition(cid, afterId + 1) },
    { batchSize: LIST_BATCH },
  );
  for await (const item of iter) ids.push(item.key[2] as number);
  return ids;
}

async function* scanRange(
  kv: Deno.Kv,
  cid: number,
  first: number,
  last: number,
): AsyncGenerator<Entry> {
  const iter = kv.list<Entry>(
    { start: keys.entry(first), end: keys.entry(last + 1) },
    { batchSize: LIST_BATCH },
  );
  for await (const item of iter) {
    if (item.value.competitionId === cid) yield item.value;
  }
}

async function* readByIds(kv: Deno.Kv, ids: number[]): AsyncGenerator<Entry> {
  const batches = chunk(ids.map(keys.entry), GET_MANY_LIMIT);
  for (const wave of chunk(batches, GET_MANY_PARALLEL)) {
    const results = await Promise.all(wave.map((batch) => kv.getMany<Entry[]>(batch)));
    for (const item of results.flat()) if (item.value) yield item.value as Entry;
  }
}

async function edgeId(kv: Deno.Kv, cid: number, afterId: number, reverse: boolean) {
  const iter = kv.list<number>(
    { prefix: keys.entriesByCompetition(cid), start: keys.entryByCompetition(cid, afterId + 1) },
    { limit: 1, reverse },
  );
  for await (const item of iter) return item.key[2] as number;
  return null;
}

/**
 * The competition's entries with an id above `afterId`, in id order, streamed so a caller that
 * keeps only a few fields never holds them all. When about `expected` entries are new and their
 * ids are dense (one competition filling up), they come from one range scan of `["entries"]`
 * between the first and last new id, without listing the index (100k entries in about a
 * second); scattered ids are listed from the index and read by id.
 */
export async function* entriesAfter(
  kv: Deno.Kv,
  cid: number,
  afterId = 0,
  expected = 0,
): AsyncGenerator<Entry> {
  const [first, last] = await Promise.all([
    edgeId(kv, cid, afterId, false),
    edgeId(kv, cid, afterId, true),
  ]);
  if (first === null || last === null) return;
  if (expected / (last - first + 1) >= MIN_RANGE_DENSITY) {
    yield* scanRange(kv, cid, first, last);
    return;
  }
  yield* readByIds(kv, await listEntryIdsAfter(kv, cid, afterId));
}

/** The entry ids of these team ids (`entry_by_team_id`); unknown team ids are left out. */
export async function getEntryIdsByTeamIds(kv: Deno.Kv, teamIds: string[]): Promise<number[]> {
  const found = await getManyEntries<number>(kv, teamIds.map(keys.entryByTeamId));
  return found.flatMap((item) => (item.value === null ? [] : [item.value]));
}
