/**
 * Group commit. A store commit costs about the same for one key as for twenty (SQLite writes and
 * syncs once per transaction), so writes that arrive while a commit is under way wait and go
 * into the next one. `BatchQueue` is the one queue that does this (one batch in flight per store
 * and kind of write); paid entries (entry_writes.ts) and the small independent writes below
 * (payment intents, pending checkouts, outbox messages) are its two uses.
 *
 * Small writes are merged exactly: a write joins a batch only when none of its keys is written or
 * checked by another write of the batch, so the merged atomic does what the writes would have
 * done one after the other. When the merged atomic fails, the checked keys are read again: the
 * writes whose check really failed answer `false` (their caller re-reads and tries again, as
 * after a failed commit of its own); the others go into the next batch.
 */
import { storeState } from "./store_state.ts";
import { getManyEntries } from "./util.ts";

/** How a queue forms and commits its batches. */
export interface BatchPlan<W> {
  /** Splits the waiting items (in arrival order) into the next batch and the rest. */
  take(waiting: W[]): { batch: W[]; rest: W[] };
  /** Commits a batch; resolves to the items that must go again (first in the next batch). */
  commit(batch: W[]): Promise<W[]>;
  /** The batch could not be committed at all (a store error): tell each item. */
  fail(batch: W[], err: unknown): void;
}

/** Items committed in batches, one batch in flight at a time. */
export class BatchQueue<W> {
  #waiting: W[] = [];
  #running = false;

  constructor(private readonly plan: BatchPlan<W>) {}

  add(item: W): void {
    this.#waiting.push(item);
    if (!this.#running) void this.#run();
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length > 0) {
        const { batch, rest } = this.plan.take(this.#waiting);
        this.#waiting = rest;
        try {
          const again = await this.plan.commit(batch);
          if (again.length > 0) this.#waiting = [...again, ...this.#waiting];
        } catch (err) {
          this.plan.fail(batch, err);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}

/**
 * One queue per store (kept in its StoreState, see store_state.ts): `make` builds it, over the
 * state's store, the first time the store is seen.
 */
export function queuePerStore<Q>(make: (kv: Deno.Kv) => Q): (kv: Deno.Kv) => Q {
  const kind = Symbol("queue");
  return (kv) => {
    const state = storeState(kv);
    let queue = state.queues.get(kind) as Q | undefined;
    if (!queue) {
      queue = make(state.kv);
      state.queues.set(kind, queue);
    }
    return queue;
  };
}

/** The text of a key, to compare keys in sets and maps. */
export const keyText = (key: Deno.KvKey): string =>
  JSON.stringify(key, (_, v) => typeof v === "bigint" ? `${v}n` : v);

/** One atomic write: its versionstamp checks and its mutations. */
export interface GroupedWrite {
  checks: Deno.AtomicCheck[];
  mutations: Deno.KvMutation[];
}

/** Deno KV's limits per atomic: 100 checks, 1000 mutations; we keep batches well below. */
const MAX_CHECKS = 100;
const MAX_MUTATIONS = 400;
const MAX_WRITES = 64;

interface WaitingWrite {
  write: GroupedWrite;
  resolve(ok: boolean): void;
  reject(err: unknown): void;
}

/** The next batch of small writes, in arrival order: writes whose keys do not meet. */
function takeWrites(waiting: WaitingWrite[]): { batch: WaitingWrite[]; rest: WaitingWrite[] } {
  const written = new Set<string>();
  const checked = new Set<string>();
  let checks = 0;
  let mutations = 0;
  const batch: WaitingWrite[] = [];
  const rest: WaitingWrite[] = [];
  for (const w of waiting) {
    const checkKeys = w.write.checks.map((c) => keyText(c.key));
    const writeKeys = w.write.mutations.map((m) => keyText(m.key));
    const meets = checkKeys.some((k) => written.has(k)) ||
      writeKeys.some((k) => written.has(k) || checked.has(k));
    const full = batch.length >= MAX_WRITES || checks + checkKeys.length > MAX_CHECKS ||
      mutations + writeKeys.length > MAX_MUTATIONS;
    if (batch.length > 0 && (meets || full)) {
      rest.push(w);
      continue;
    }
    for (const k of checkKeys) checked.add(k);
    for (const k of writeKeys) written.add(k);
    checks += checkKeys.length;
    mutations += writeKeys.length;
    batch.push(w);
  }
  return { batch, rest };
}

function writePlan(kv: Deno.Kv): BatchPlan<WaitingWrite> {
  const commitAlone = async (w: WaitingWrite) => {
    try {
      const op = kv.atomic().check(...w.write.checks).mutate(...w.write.mutations);
      w.resolve((await op.commit()).ok);
    } catch (err) {
      w.reject(err);
    }
  };
  /** After a failed merged atomic: `false` for the writes whose checks failed, retry the rest. */
  const sortOutFailure = async (batch: WaitingWrite[]) => {
    const checks = batch.flatMap((w) => w.write.checks);
    const now = await getManyEntries(kv, checks.map((c) => c.key));
    const stale = new Set(
      checks.filter((c, i) => now[i].versionstamp !== c.versionstamp).map((c) => keyText(c.key)),
    );
    const again: WaitingWrite[] = [];
    for (const w of batch) {
      if (stale.size === 0 || w.write.checks.some((c) => stale.has(keyText(c.key)))) {
        w.resolve(false);
      } else {
        again.push(w);
      }
    }
    return again;
  };
  return {
    take: takeWrites,
    async commit(batch) {
      let ok: boolean;
      try {
        const op = kv.atomic();
        for (const { write } of batch) op.check(...write.checks).mutate(...write.mutations);
        ok = (await op.commit()).ok;
      } catch (err) {
        if (batch.length === 1) throw err;
        // A limit of the store (size): each write on its own says whose.
        await Promise.all(batch.map(commitAlone));
        return [];
      }
      if (ok || batch.length === 1) {
        for (const w of batch) w.resolve(ok);
        return [];
      }
      return await sortOutFailure(batch);
    },
    fail(batch, err) {
      for (const w of batch) w.reject(err);
    },
  };
}

const writeQueueOf = queuePerStore((kv) => new BatchQueue(writePlan(kv)));

/**
 * Commits `write` as part of the next batch of small writes of this store: true when committed,
 * false when one of its checks failed (re-read and try again, as after `commit()` answered
 * `ok: false`).
 * @example const ok = await commitGrouped(kv, { checks: [entry], mutations: [{ type: "set", key, value }] });
 */
export function commitGrouped(kv: Deno.Kv, write: GroupedWrite): Promise<boolean> {
  return new Promise((resolve, reject) => writeQueueOf(kv).add({ write, resolve, reject }));
}
