/**
 * The render cache: public pages and GET APIs are rendered (and compressed) once per version of
 * the data they show, not once per request. The key of a cached answer holds the KV
 * versionstamps of that data, read on every request with one cheap `getMany` (plus a prefix list
 * for small collections), so this per-process memory can never disagree with KV on any isolate.
 *
 * The invariant it relies on: every write that changes what a public answer shows changes one of
 * its dependency keys: the record itself, `["live", cid]` (events, performances, entries, prizes,
 * competition players) or `["catalog"]` (players, teams, matches; `bumpCatalog`).
 *
 * Time: an answer is rendered for the end of its `CACHE_BUCKET_MS` time slot and kept no longer
 * than that slot, so a deadline shows as passed up to one slot early, never late; what changes by
 * the second (countdowns) is computed again in the browser.
 */
import { keys } from "./db/keys.ts";
import {
  type EncodedFile,
  isCompressible,
  MIN_COMPRESS_BYTES,
  serveEncoded,
} from "./fresh/src/compress.ts";

/** How long a rendered answer may be reused; it is rendered for the end of its slot. */
export const CACHE_BUCKET_MS = 10_000;
/** At most this many answers, and this many bytes of them, are kept (least recently used out). */
const MAX_ENTRIES = 500;
const MAX_BYTES = 64 * 1024 * 1024;
/** `getMany` takes at most 10 keys. */
const GET_MANY_LIMIT = 10;

/** What an answer shows: single keys (their versionstamps) and small collections (listed). */
export interface Dependencies {
  keys?: Deno.KvKey[];
  prefixes?: Deno.KvKey[];
}

interface CachedAnswer {
  file: EncodedFile;
  status: number;
  headers: [string, string][];
  bytes: number;
}

const answers = new Map<string, Promise<CachedAnswer | null>>();
let cachedBytes = 0;
let currentSlot = 0;

/** What a competition page shows: the competition, its live marker and the catalog. */
export function competitionDependencies(cid: number | null): Dependencies {
  return cid === null ? {} : { keys: [keys.competition(cid), keys.live(cid), keys.catalog()] };
}

/** What the competition list shows: every competition record. */
export const COMPETITION_LIST: Dependencies = { prefixes: [keys.competitions()] };

/**
 * What the public competition list shows: the records, and whether each one's players make a
 * valid team (its players move its live key; player records move the catalog key).
 */
export const PUBLIC_COMPETITION_LIST: Dependencies = {
  prefixes: [keys.competitions(), ["live"]],
  keys: [keys.catalog()],
};

/** A competition with its fixture: competitionDependencies plus the match records (the score). */
export function competitionWithFixture(cid: number | null): Dependencies {
  return { ...competitionDependencies(cid), prefixes: [keys.matches()] };
}

/**
 * Answers `req` from the cache when the data in `deps` has not changed in this time slot, else
 * calls `answer(slotEnd)` and keeps its result when it is a 200 without cookies. Cached
 * answers are compressed per `Accept-Encoding` once per coding, with an ETag and 304s.
 * @example return cachedAnswer(req, kv, competitionDependencies(id), (now) => ctx.render(...));
 */
export async function cachedAnswer(
  req: Request,
  kv: Deno.Kv,
  deps: Dependencies,
  answer: (now: Date) => Promise<Response>,
): Promise<Response> {
  const slot = Math.floor(Date.now() / CACHE_BUCKET_MS);
  if (slot !== currentSlot) {
    clearRenderCache(); // every answer of an earlier slot is out of date
    currentSlot = slot;
  }
  const now = new Date((slot + 1) * CACHE_BUCKET_MS);
  const url = new URL(req.url);
  const key = `${storeId(kv)}|${url.pathname}${url.search}|${await versionsOf(kv, deps)}`;
  const found = answers.get(key);
  if (found) {
    answers.delete(key);
    answers.set(key, found); // now the most recently used
    const cached = await found;
    return cached ? serveCached(req, cached) : await answer(now);
  }
  // Concurrent requests for the same new version wait for this one render.
  let own: Response | null = null;
  const pending = answer(now).then((res) => {
    own = res;
    return toCached(res, key);
  });
  answers.set(key, pending);
  let cached: CachedAnswer | null;
  try {
    cached = await pending;
  } catch (err) {
    answers.delete(key);
    throw err;
  }
  if (!cached) {
    answers.delete(key);
    return own!;
  }
  remember(cached);
  return serveCached(req, cached);
}

/** A number per open store: two stores (tests) can hand out the same versionstamps. */
const stores = new WeakMap<Deno.Kv, number>();
let lastStoreId = 0;
function storeId(kv: Deno.Kv): number {
  let id = stores.get(kv);
  if (id === undefined) stores.set(kv, id = ++lastStoreId);
  return id;
}

/** The versionstamps of `deps`, joined: one getMany per 10 keys, one list per prefix. */
async function versionsOf(kv: Deno.Kv, deps: Dependencies): Promise<string> {
  const reads: Promise<string[]>[] = [];
  const all = deps.keys ?? [];
  for (let i = 0; i < all.length; i += GET_MANY_LIMIT) {
    reads.push(
      kv.getMany(all.slice(i, i + GET_MANY_LIMIT)).then((entries) =>
        entries.map((e) => e.versionstamp ?? "-")
      ),
    );
  }
  for (const prefix of deps.prefixes ?? []) {
    reads.push(
      Array.fromAsync(kv.list({ prefix })).then((entries) =>
        entries.map((e) => `${JSON.stringify(e.key.slice(prefix.length))}@${e.versionstamp}`)
      ),
    );
  }
  return (await Promise.all(reads)).flat().join(",");
}

async function toCached(res: Response, key: string): Promise<CachedAnswer | null> {
  if (res.status !== 200 || res.headers.has("set-cookie") || !res.body) return null;
  if (res.headers.has("content-encoding")) return null;
  if (!isCompressible(res.headers.get("content-type"))) return null;
  const identity = new Uint8Array(await res.arrayBuffer());
  const skip = new Set(["content-length", "content-encoding", "etag", "vary"]);
  const headers = [...res.headers].filter(([name]) => !skip.has(name));
  const etag = `"${await digest(`${key}\n${identity.length}`)}"`;
  const compressible = identity.length >= MIN_COMPRESS_BYTES;
  return {
    file: { etag, identity, compressible, encoded: {} },
    status: res.status,
    headers,
    bytes: 0,
  };
}

function remember(cached: CachedAnswer): void {
  cached.bytes = cached.file.identity.length;
  cachedBytes += cached.bytes;
  while (answers.size > MAX_ENTRIES || cachedBytes > MAX_BYTES) {
    const oldest = answers.keys().next().value!;
    const entry = answers.get(oldest)!;
    answers.delete(oldest);
    entry.then((old) => cachedBytes -= old?.bytes ?? 0, () => {});
    if (answers.size === 0) break;
  }
}

function serveCached(req: Request, cached: CachedAnswer): Response {
  const before = encodedBytes(cached.file);
  const res = serveEncoded(req, cached.file, new Headers(cached.headers));
  const added = encodedBytes(cached.file) - before; // a coding made on first use
  cached.bytes += added;
  cachedBytes += added;
  return res;
}

function encodedBytes(file: EncodedFile): number {
  return Object.values(file.encoded).reduce((sum, bytes) => sum + bytes.length, 0);
}

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return [...bytes.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Empties the cache (tests). */
export function clearRenderCache(): void {
  answers.clear();
  cachedBytes = 0;
}
