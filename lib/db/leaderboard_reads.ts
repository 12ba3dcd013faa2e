/**
 * Lean reads for the in-process leaderboard cache (lib/live/leaderboard_cache.ts): the parts of a
 * competition's entries that ranking needs, read incrementally. Entry ids come from an atomic
 * counter whose check makes commits happen in id order, so "entries after id N" is a complete
 * view of what was added since N was seen.
 */
import type { Entry } from "../domain/types.ts";
import { GET_MANY_LIMIT, keys } from "./keys.ts";
import { chunk } from "./util.ts";

/** What ranking and the leaderboard rows read of an entry (immutable once created). */
export interface EntrySummary {
  id: number;
  teamId: string;
  teamName: string;
  playerIds: number[];
  createdAt: string;
}

const LIST_BATCH = 1000;
/** Parallel `getMany` calls in flight when entries are too scattered for a range scan. */
const GET_MANY_PARALLEL = 64;
/** A range scan over `["entries"]` pays off when at least this share of the range is ours. */
const MIN_RANGE_DENSITY = 0.5;

function summaryOf(entry: Entry): EntrySummary {
  return {
    id: entry.id,
    teamId: entry.teamId,
    teamName: entry.teamName,
    playerIds: entry.playerIds,
    createdAt: entry.createdAt,
  };
}

/** Ids of the competition's entries above `afterId`, ascending. */
export async function listEntryIdsAfter(
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

async function scanRange(kv: Deno.Kv, cid: number, ids: number[]): Promise<EntrySummary[]> {
  const out: EntrySummary[] = [];
  const iter = kv.list<Entry>(
    { start: keys.entry(ids[0]), end: keys.entry(ids[ids.length - 1] + 1) },
    { batchSize: LIST_BATCH },
  );
  for await (const item of iter) {
    if (item.value.competitionId === cid) out.push(summaryOf(item.value));
  }
  return out;
}

async function readByIds(kv: Deno.Kv, ids: number[]): Promise<EntrySummary[]> {
  const out: EntrySummary[] = [];
  const batches = chunk(ids.map(keys.entry), GET_MANY_LIMIT);
  for (const wave of chunk(batches, GET_MANY_PARALLEL)) {
    const results = await Promise.all(wave.map((batch) => kv.getMany<Entry[]>(batch)));
    for (const item of results.flat()) if (item.value) out.push(summaryOf(item.value as Entry));
  }
  return out;
}

/**
 * Summaries of the competition's entries with an id above `afterId`, in id order. A dense id
 * range is read with one range scan (100k entries in about a second), a scattered one by id.
 */
export async function listEntrySummariesAfter(
  kv: Deno.Kv,
  cid: number,
  afterId = 0,
): Promise<EntrySummary[]> {
  const ids = await listEntryIdsAfter(kv, cid, afterId);
  if (ids.length === 0) return [];
  const span = ids[ids.length - 1] - ids[0] + 1;
  if (ids.length / span >= MIN_RANGE_DENSITY) return await scanRange(kv, cid, ids);
  return await readByIds(kv, ids);
}
