/**
 * The render cache: public pages and GET APIs are rendered (and compressed) once per version of
 * the data they show, not once per request. One cache per isolate lives in the services
 * (`ctx.state.services.cache`); the key of a kept answer holds the versionstamps of the change
 * markers of what it shows (see lib/store/touch.ts), read with ONE `getMany` per request, so the
 * isolate's memory never disagrees with KV beyond the markers' own replication delay.
 *
 * The markers are read with eventual consistency: on a replicated store (Deno Deploy) a page may
 * show the data of a moment ago, which is harmless for public pages; what decides money reads
 * strongly elsewhere.
 *
 * Time: an answer is rendered for the end of its `CACHE_BUCKET_MS` time slot and kept no longer
 * than that slot, so a deadline shows as passed up to one slot early, never late; what changes by
 * the second (countdowns) is computed again in the browser.
 */
import { keys } from "./store/keys.ts";
import { overrideKv } from "./store/kv_wrapper.ts";
import {
  type EncodedFile,
  isCompressible,
  MIN_COMPRESS_BYTES,
  serveEncoded,
} from "$fresh/compress.ts";

/** How long a rendered answer may be reused; it is rendered for the end of its slot. */
export const CACHE_BUCKET_MS = 10_000;
/** At most this many answers, and this many bytes of them, are kept (least recently used out). */
const MAX_ENTRIES = 500;
const MAX_BYTES = 64 * 1024 * 1024;

/** What an answer shows: the change markers (at most 10, one `getMany`) whose moves change it. */
export interface Dependencies {
  keys: Deno.KvKey[];
}

interface CachedAnswer {
  file: EncodedFile;
  status: number;
  headers: [string, string][];
  bytes: number;
}

/** What a competition page shows: the competition's data and the catalog. */
export function competitionDependencies(cid: number | null): Dependencies {
  return { keys: cid === null ? [] : [keys.live(cid), keys.catalog()] };
}

/** A competition with its fixture: the match's score moves the catalog marker. */
export const competitionWithFixture = competitionDependencies;

/** What the public competition list shows: every competition, its entries and players. */
export const PUBLIC_COMPETITION_LIST: Dependencies = { keys: [keys.publicVersion()] };

/**
 * One isolate's kept answers over one store.
 * @example return ctx.state.services.cache.answer(req, competitionDependencies(id), (now) => ...);
 */
export class RenderCache {
  /**
   * The store as the renders of kept answers read it: eventual reads (a nearby replica on
   * Deno Deploy), since a kept answer is public and lives at most one time slot anyway.
   */
  readonly eventualKv: Deno.Kv;
  #answers = new Map<string, Promise<CachedAnswer | null>>();
  #bytes = 0;
  #slot = 0;

  constructor(private readonly kv: Deno.Kv) {
    this.eventualKv = eventualReads(kv);
  }

  /**
   * Answers `req` from the cache when the markers in `deps` have not moved in this time slot,
   * else calls `render(slotEnd)` and keeps its result when it is a 200 without cookies. Kept
   * answers are compressed per `Accept-Encoding` once per coding, with an ETag and 304s.
   */
  async answer(
    req: Request,
    deps: Dependencies,
    render: (now: Date) => Promise<Response>,
  ): Promise<Response> {
    const slot = Math.floor(Date.now() / CACHE_BUCKET_MS);
    if (slot !== this.#slot) {
      this.clear(); // every answer of an earlier slot is out of date
      this.#slot = slot;
    }
    const now = new Date((slot + 1) * CACHE_BUCKET_MS);
    const url = new URL(req.url);
    const key = `${url.pathname}${url.search}|${await this.#versionsOf(deps)}`;
    const found = this.#answers.get(key);
    if (found) {
      this.#answers.delete(key);
      this.#answers.set(key, found); // now the most recently used
      const cached = await found;
      return cached ? this.#serve(req, cached) : await render(now);
    }
    // Concurrent requests for the same new version wait for this one render.
    let own: Response | null = null;
    const pending = render(now).then((res) => {
      own = res;
      return toCached(res, key);
    });
    this.#answers.set(key, pending);
    let cached: CachedAnswer | null;
    try {
      cached = await pending;
    } catch (err) {
      this.#answers.delete(key);
      throw err;
    }
    if (!cached) {
      this.#answers.delete(key);
      return own!;
    }
    this.#remember(cached);
    return this.#serve(req, cached);
  }

  /** Empties the cache. */
  clear(): void {
    this.#answers.clear();
    this.#bytes = 0;
  }

  /** The versionstamps of the markers, joined: one eventual `getMany`. */
  async #versionsOf(deps: Dependencies): Promise<string> {
    if (deps.keys.length === 0) return "";
    const entries = await this.kv.getMany(deps.keys, { consistency: "eventual" });
    return entries.map((e) => e.versionstamp ?? "-").join(",");
  }

  #remember(cached: CachedAnswer): void {
    cached.bytes = cached.file.identity.length;
    this.#bytes += cached.bytes;
    while (this.#answers.size > MAX_ENTRIES || this.#bytes > MAX_BYTES) {
      const oldest = this.#answers.keys().next().value!;
      const entry = this.#answers.get(oldest)!;
      this.#answers.delete(oldest);
      entry.then((old) => this.#bytes -= old?.bytes ?? 0, () => {});
      if (this.#answers.size === 0) break;
    }
  }

  #serve(req: Request, cached: CachedAnswer): Response {
    const before = encodedBytes(cached.file);
    const res = serveEncoded(req, cached.file, new Headers(cached.headers));
    const added = encodedBytes(cached.file) - before; // a coding made on first use
    cached.bytes += added;
    this.#bytes += added;
    return res;
  }
}

/** `kv` whose get, getMany and list read with eventual consistency unless told otherwise. */
function eventualReads(kv: Deno.Kv): Deno.Kv {
  const eventual = { consistency: "eventual" as const };
  return overrideKv(kv, {
    get: (key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) =>
      kv.get(key, { ...eventual, ...options }),
    getMany: (keys: Deno.KvKey[], options?: { consistency?: Deno.KvConsistencyLevel }) =>
      kv.getMany(keys, { ...eventual, ...options }),
    list: (selector: Deno.KvListSelector, options?: Deno.KvListOptions) =>
      kv.list(selector, { ...eventual, ...options }),
  });
}

async function toCached(res: Response, key: string): Promise<CachedAnswer | null> {
  if (res.status !== 200 || res.headers.has("set-cookie") || !res.body) return null;
  if (res.headers.has("content-encoding")) return null;
  const identity = new Uint8Array(await res.arrayBuffer());
  const skip = new Set(["content-length", "content-encoding", "etag", "vary"]);
  const headers = [...res.headers].filter(([name]) => !skip.has(name));
  const etag = `"${await digest(`${key}\n${identity.length}`)}"`;
  // Images (link previews) are kept too, to spare a render, but sent as they are.
  const compressible = isCompressible(res.headers.get("content-type")) &&
    identity.length >= MIN_COMPRESS_BYTES;
  return {
    file: { etag, identity, compressible, encoded: {} },
    status: res.status,
    headers,
    bytes: 0,
  };
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
