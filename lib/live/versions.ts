/**
 * Where the live hub learns that a competition changed: the versionstamp of `["live", cid]`,
 * bumped in the same atomic as any event, performance or entry change. `followLiveVersions`
 * reports each new versionstamp of a followed competition once, to one callback, whatever told
 * it: a `kv.watch` per competition (instant within this process, including the other isolates of
 * one process) and, because `kv.watch` does not fire for writes of other processes on a local
 * SQLite file, one `getMany` of all followed keys every `pollMs`.
 */
import { keys } from "@/lib/store/keys.ts";
import { getManyEntries } from "@/lib/store/util.ts";

export interface LiveVersions {
  /** Starts reporting `cid` (its current versionstamp comes first). */
  follow(cid: number): void;
  /** Stops reporting `cid`. */
  unfollow(cid: number): Promise<void>;
  /** Stops everything. */
  close(): Promise<void>;
}

/** Calls `onVersion(cid, versionstamp)` for each new live versionstamp of a followed competition. */
export function followLiveVersions(
  kv: Deno.Kv,
  pollMs: number,
  onVersion: (cid: number, versionstamp: string | null) => void,
): LiveVersions {
  const followed = new Map<number, { version?: string | null; stop(): Promise<void> }>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let polling = false;
  let closed = false;

  const report = (cid: number, versionstamp: string | null) => {
    const entry = followed.get(cid);
    if (!entry || closed || entry.version === versionstamp) return;
    entry.version = versionstamp;
    onVersion(cid, versionstamp);
  };

  const poll = async () => {
    if (polling || followed.size === 0) return;
    polling = true;
    try {
      const cids = [...followed.keys()];
      const entries = await getManyEntries(kv, cids.map((cid) => keys.live(cid)));
      cids.forEach((cid, i) => report(cid, entries[i].versionstamp));
    } catch (err) {
      if (!closed) console.error("live hub: polling failed", err);
    } finally {
      polling = false;
    }
  };

  const watch = (cid: number) => {
    const reader = kv.watch([keys.live(cid)]).getReader();
    (async () => {
      while (true) {
        const { value, done } = await reader.read();
        if (done) return;
        report(cid, value[0].versionstamp);
      }
    })().catch(() => {
      // The stream ends with an error when the store closes; polling covers anything missed.
    });
    return () => reader.cancel().catch(() => undefined);
  };

  return {
    follow(cid) {
      if (closed || followed.has(cid)) return;
      followed.set(cid, { stop: watch(cid) });
      // pollMs 0: the store's watch sees every process's writes (a remote store), no poll.
      if (pollMs > 0) timer ??= setInterval(() => void poll(), pollMs);
    },
    async unfollow(cid) {
      const entry = followed.get(cid);
      followed.delete(cid);
      if (followed.size === 0 && timer !== null) (clearInterval(timer), timer = null);
      await entry?.stop();
    },
    async close() {
      closed = true;
      if (timer !== null) clearInterval(timer);
      timer = null;
      const stops = [...followed.values()].map((entry) => entry.stop());
      followed.clear();
      await Promise.all(stops);
    },
  };
}
