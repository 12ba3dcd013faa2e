/**
 * Several processes on one local KV file: SQLite lets one of them write at a
 * time, and Deno KV answers an operation that met another process's write lock with the error
 * "database is locked" instead of waiting. `withBusyRetry` wraps a store so that every read,
 * list and commit that met the lock is tried again after a short pause (a commit that met it did
 * not happen, so trying it again is safe). Other errors pass through unchanged.
 */
import { aroundRoundTrips, overrideKv } from "@/lib/store/kv_wrapper.ts";

const MAX_WAIT_MS = 30_000;

/**
 * SQLite's text for SQLITE_BUSY. Deno KV passes a locked file on as a plain `TypeError` (its
 * class for refused arguments too) with no code of its own, so this exact text is what tells the
 * two apart; tests/unit/store/busy_retry_test.ts locks a real file and pins it.
 */
const SQLITE_BUSY_TEXT = "database is locked";

/** True for Deno KV's error of a local file whose write lock another connection holds. */
export function isStoreBusy(err: unknown): boolean {
  return err instanceof TypeError && err.message === SQLITE_BUSY_TEXT;
}

/** Runs `op`, again after a growing random pause while the file is locked (at most ~30 s). */
export async function retryWhileBusy<T>(op: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 0;; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (!isStoreBusy(err) || Date.now() - started > MAX_WAIT_MS) throw err;
      const pause = Math.random() * Math.min(1 + attempt * 2, 50);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** A list that resumes after its last entry when the file was locked mid-way. */
function retryingList<T>(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  options: Deno.KvListOptions = {},
): Deno.KvListIterator<T> {
  let cursor = options.cursor;
  async function* entries(): AsyncGenerator<Deno.KvEntry<T>> {
    const started = Date.now();
    for (let attempt = 0;; attempt++) {
      const iter = kv.list<T>(selector, { ...options, cursor });
      try {
        for await (const entry of iter) {
          // Before the yield, as Deno's own iterator does: read right after an entry, `cursor`
          // resumes after that entry (a page's next cursor), and so does a retry.
          cursor = iter.cursor;
          yield entry;
        }
        return;
      } catch (err) {
        if (!isStoreBusy(err) || Date.now() - started > MAX_WAIT_MS) throw err;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.random() * Math.min(1 + attempt, 50))
        );
      }
    }
  }
  const generator = entries();
  Object.defineProperty(generator, "cursor", { get: () => cursor ?? "" });
  return generator as unknown as Deno.KvListIterator<T>;
}

/** The operation `op` with `commit()` tried again while the file is locked. */
function retryingAtomic(op: Deno.AtomicOperation): Deno.AtomicOperation {
  const commit = op.commit.bind(op);
  op.commit = () => retryWhileBusy(commit);
  return op;
}

/** `kv` with every read, list and write tried again while another process holds the file. */
export function withBusyRetry(kv: Deno.Kv): Deno.Kv {
  return overrideKv(kv, {
    ...aroundRoundTrips(
      kv,
      ["get", "getMany", "set", "delete", "enqueue"],
      (_, run) => retryWhileBusy(run),
    ),
    list: (selector: Deno.KvListSelector, options?: Deno.KvListOptions) =>
      retryingList(kv, selector, options),
    atomic: () => retryingAtomic(kv.atomic()),
  });
}
