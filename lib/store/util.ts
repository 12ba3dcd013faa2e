/** Small Deno KV helpers shared by the entity modules: batched reads, chunking, retried atomics. */
import { ConflictError } from "@/lib/domain/errors.ts";
import { ATOMIC_CHUNK, GET_MANY_LIMIT } from "./keys.ts";
import { type PublicScope, touch } from "./touch.ts";

/** Splits a list into consecutive chunks of at most `size` items. */
export function chunk<T>(items: readonly T[], size = ATOMIC_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** `kv.getMany` for any number of keys (Deno KV takes at most 10 per call), order kept. */
export async function getManyEntries<T>(
  kv: Deno.Kv,
  keyList: readonly Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  const batches = chunk(keyList, GET_MANY_LIMIT);
  const results = await Promise.all(batches.map((batch) => kv.getMany<T[]>(batch)));
  return results.flat() as Deno.KvEntryMaybe<T>[];
}

/** The values stored at `keyList`, missing ones left out, order kept. */
export async function getManyValues<T>(kv: Deno.Kv, keyList: readonly Deno.KvKey[]): Promise<T[]> {
  const entries = await getManyEntries<T>(kv, keyList);
  return entries.flatMap((e) => (e.value === null ? [] : [e.value]));
}

/** Every value under a key prefix, in key order. */
export async function listValues<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  const out: T[] = [];
  for await (const entry of kv.list<T>({ prefix })) out.push(entry.value);
  return out;
}

/** Every key under a key prefix, in key order. */
export async function listKeys(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix })) out.push(entry.key);
  return out;
}

/**
 * Deletes the given keys in atomics of at most `ATOMIC_CHUNK` deletions each, each touching
 * `scope` when the keys are public data.
 */
export async function deleteKeys(
  kv: Deno.Kv,
  keyList: readonly Deno.KvKey[],
  scope?: PublicScope,
): Promise<void> {
  for (const batch of chunk(keyList)) {
    // Touched first, so a batch that deletes the live marker itself leaves it deleted.
    const op = scope ? touch(kv.atomic(), scope) : kv.atomic();
    for (const key of batch) op.delete(key);
    await commitOrThrow(op, "delete records");
  }
}

/** Commits an atomic that has no checks; a failure means the store refused it. */
async function commitOrThrow(op: Deno.AtomicOperation, what: string): Promise<void> {
  const res = await op.commit();
  if (!res.ok) throw new Error(`Could not ${what}: the atomic write was refused`);
}

const MAX_ATTEMPTS = 100;

/**
 * Runs a read-check-write `attempt` until it commits. `attempt` returns `undefined` when its
 * versionstamp checks failed (something changed underneath); anything else is the result.
 */
export async function retryAtomic<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
): Promise<T> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 + i, 20)));
  }
  throw new ConflictError(`Could not ${what}: too many concurrent changes, please try again.`);
}
