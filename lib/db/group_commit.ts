/**
 * Group commit of small independent writes (issue #9). A store commit costs about the same for
 * one key as for twenty (SQLite writes and syncs once per transaction), so the writes of the
 * paid-entry path (payment intents, pending checkouts, outbox messages) that arrive while a
 * commit is under way are merged into the next one. Merging is exact: a write joins a batch only
 * when none of its keys is written or checked by another write of the batch, so the merged atomic
 * does what the writes would have done one after the other. When the merged atomic fails, the
 * checked keys are read again: the writes whose check really failed answer `false` (their caller
 * re-reads and tries again, as after a failed commit of its own); the others go into the next
 * batch.
 */
import { getManyEntries } from "./util.ts";

/** One atomic write: its versionstamp checks and its mutations. */
export interface GroupedWrite {
  checks: Deno.AtomicCheck[];
  mutations: Deno.KvMutation[];
}

/** Deno KV's limits per atomic: 100 checks, 1000 mutations; we keep batches well below. */
const MAX_CHECKS = 100;
const MAX_MUTATIONS = 400;
const MAX_WRITES = 64;

interface Waiting {
  write: GroupedWrite;
  resolve(ok: boolean): void;
  reject(err: unknown): void;
}

const keyText = (key: Deno.KvKey) =>
  JSON.stringify(key, (_, v) => typeof v === "bigint" ? `${v}n` : v);

class WriteQueue {
  #waiting: Waiting[] = [];
  #running = false;

  constructor(private readonly kv: Deno.Kv) {}

  submit(write: GroupedWrite): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ write, resolve, reject });
      if (!this.#running) void this.#run();
    });
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length > 0) await this.#commit(this.#take());
    } finally {
      this.#running = false;
    }
  }

  /** The next batch, in arrival order: writes whose keys do not meet, within the limits. */
  #take(): Waiting[] {
    const written = new Set<string>();
    const checked = new Set<string>();
    let checks = 0;
    let mutations = 0;
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const w of this.#waiting) {
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
    this.#waiting = rest;
    return batch;
  }

  async #commit(batch: Waiting[]): Promise<void> {
    let ok: boolean;
    try {
      const op = this.kv.atomic();
      for (const { write } of batch) op.check(...write.checks).mutate(...write.mutations);
      ok = (await op.commit()).ok;
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      // A limit of the store (size): each write on its own says whose.
      return void await Promise.all(batch.map((w) => this.#commitAlone(w)));
    }
    if (ok || batch.length === 1) {
      for (const w of batch) w.resolve(ok);
      return;
    }
    await this.#sortOutFailure(batch);
  }

  async #commitAlone(w: Waiting): Promise<void> {
    try {
      const op = this.kv.atomic().check(...w.write.checks).mutate(...w.write.mutations);
      w.resolve((await op.commit()).ok);
    } catch (err) {
      w.reject(err);
    }
  }

  /** After a failed merged atomic: `false` for the writes whose checks failed, retry the rest. */
  async #sortOutFailure(batch: Waiting[]): Promise<void> {
    const checks = batch.flatMap((w) => w.write.checks);
    const now = await getManyEntries(this.kv, checks.map((c) => c.key));
    const stale = new Set(
      checks.filter((c, i) => now[i].versionstamp !== c.versionstamp).map((c) => keyText(c.key)),
    );
    const again: Waiting[] = [];
    for (const w of batch) {
      if (stale.size === 0 || w.write.checks.some((c) => stale.has(keyText(c.key)))) {
        w.resolve(false);
      } else {
        again.push(w);
      }
    }
    this.#waiting = [...again, ...this.#waiting];
  }
}

const queues = new WeakMap<Deno.Kv, WriteQueue>();

/**
 * Commits `write` as part of the next batch of small writes of this store: true when committed,
 * false when one of its checks failed (re-read and try again, as after `commit()` answered
 * `ok: false`).
 * @example const ok = await commitGrouped(kv, { checks: [entry], mutations: [{ type: "set", key, value }] });
 */
export function commitGrouped(kv: Deno.Kv, write: GroupedWrite): Promise<boolean> {
  let queue = queues.get(kv);
  if (!queue) {
    queue = new WriteQueue(kv);
    queues.set(kv, queue);
  }
  return queue.submit(write);
}
