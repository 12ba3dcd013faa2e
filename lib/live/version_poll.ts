/**
 * The backup of `kv.watch` (which does not fire for writes of other processes on a local SQLite
 * file): every `pollMs`, ONE `getMany` of the live keys of all the isolate's followed
 * competitions, whatever the number of sockets; a versionstamp that moved triggers a refresh.
 * On a remote store (KV Connect, Deno Deploy) `kv.watch` works across processes by itself.
 */
import { keys } from "@/lib/db/keys.ts";
import { getManyEntries } from "@/lib/db/util.ts";

/** What the poll needs of a followed competition. */
export interface Polled {
  cid: number;
  version: string | null | undefined;
  refresh(): void;
}

export class VersionPoll {
  #timer: ReturnType<typeof setInterval> | null = null;
  #polling = false;
  #stopped = false;

  constructor(
    private readonly kv: Deno.Kv,
    private readonly pollMs: number,
    private readonly channels: () => Iterable<Polled>,
  ) {}

  /** Starts polling (no-op while running, or with `pollMs` 0: the store's watch is native). */
  start(): void {
    if (this.#stopped || this.pollMs <= 0) return;
    this.#timer ??= setInterval(() => void this.poll(), this.pollMs);
  }

  /** Stops polling; `final` keeps it stopped for good (hub closed). */
  stop(final = false): void {
    if (final) this.#stopped = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One round: reads every followed live key at once and refreshes those that moved. */
  async poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const channels = [...this.channels()];
      if (channels.length === 0) return;
      const entries = await getManyEntries(this.kv, channels.map((c) => keys.live(c.cid)));
      channels.forEach((channel, i) => {
        if (entries[i].versionstamp !== channel.version) channel.refresh();
      });
    } catch (err) {
      if (!this.#stopped) console.error("live hub: polling failed", err);
    } finally {
      this.#polling = false;
    }
  }
}
