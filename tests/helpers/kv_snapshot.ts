/**
 * Whole-store snapshots for tests that must prove a request changed nothing: every key with its
 * versionstamp, and a way to put a store back to a saved state between requests.
 */

/** Key prefixes whose writes record an attempt on purpose (throttles, counters). */
export const RECORDING_PREFIXES = ["login_trust", "analytics", "rate_limits"];

/** One key's place in a snapshot: its first key part and its versionstamp. */
export interface KeyVersion {
  prefix: string;
  versionstamp: string;
}

/** Every key of the store (printed) mapped to its first part and versionstamp. */
export async function snapshotVersions(kv: Deno.Kv): Promise<Map<string, KeyVersion>> {
  const out = new Map<string, KeyVersion>();
  for await (const entry of kv.list({ prefix: [] })) {
    out.set(Deno.inspect(entry.key), {
      prefix: String(entry.key[0]),
      versionstamp: entry.versionstamp,
    });
  }
  return out;
}

/**
 * The keys added (+), removed (-) or rewritten (~) between two snapshots, leaving out the keys
 * whose first part is in `ignore`; empty when nothing changed.
 */
export function diffVersions(
  before: Map<string, KeyVersion>,
  after: Map<string, KeyVersion>,
  ignore: readonly string[] = [],
): string[] {
  const changed: string[] = [];
  for (const [key, now] of after) {
    if (ignore.includes(now.prefix)) continue;
    const was = before.get(key);
    if (was?.versionstamp !== now.versionstamp) changed.push(`${was ? "~" : "+"}${key}`);
  }
  for (const [key, was] of before) {
    if (!ignore.includes(was.prefix) && !after.has(key)) changed.push(`-${key}`);
  }
  return changed;
}

/** Every entry of the store, to hand to `restoreEntries` later. */
export async function saveEntries(kv: Deno.Kv): Promise<Deno.KvEntry<unknown>[]> {
  const out: Deno.KvEntry<unknown>[] = [];
  for await (const entry of kv.list({ prefix: [] })) out.push(entry);
  return out;
}

const BATCH = 200;

/** Empties the store and writes `entries` back (values equal, versionstamps new). */
export async function restoreEntries(
  kv: Deno.Kv,
  entries: readonly Deno.KvEntry<unknown>[],
): Promise<void> {
  const current: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix: [] })) current.push(entry.key);
  for (let i = 0; i < current.length; i += BATCH) {
    const op = kv.atomic();
    for (const key of current.slice(i, i + BATCH)) op.delete(key);
    if (!(await op.commit()).ok) throw new Error("restoreEntries: delete refused");
  }
  for (let i = 0; i < entries.length; i += BATCH) {
    const op = kv.atomic();
    for (const entry of entries.slice(i, i + BATCH)) op.set(entry.key, entry.value);
    if (!(await op.commit()).ok) throw new Error("restoreEntries: write refused");
  }
}
