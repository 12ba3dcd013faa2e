/**
 * A Deno KV store as far away as a remote one: every round trip (get, getMany, set, delete,
 * an atomic commit, each page of a list, enqueue, the first answer of a watch) waits
 * `latencyMs` before it goes to the real store, and is counted. `sequential` counts the round
 * trips that started while no other was in flight: for one request at a time, the waits on
 * its critical path (parallel reads count once). `strong` counts likewise the round trips to the
 * primary (all but eventual reads, which Deno Deploy answers from a nearby replica) that started
 * while no other strong one was in flight.
 * @example
 * const counter = new RoundTrips();
 * const kv = withLatency(await Deno.openKv(":memory:"), 90, counter);
 */

/** Counts of round trips, by operation, and those on the critical path. */
export class RoundTrips {
  total = 0;
  sequential = 0;
  /** Sequential round trips to the primary (eventual reads left out). */
  strong = 0;
  byOp: Record<string, number> = {};
  /** Atomic commits refused because a check failed (another writer got there first). */
  conflicts = 0;
  /** Each round trip as `op what` (`~` marks one that overlapped another), when tracing. */
  trace: string[] | null = null;
  #inFlight = 0;
  #strongInFlight = 0;

  /** Notes the start of a round trip; call the returned function at its end. */
  begin(op: string, what = ""): () => void {
    this.trace?.push(`${this.#inFlight > 0 ? "~" : ""}${op} ${what}`.trim());
    this.total++;
    this.byOp[op] = (this.byOp[op] ?? 0) + 1;
    if (this.#inFlight === 0) this.sequential++;
    const strong = !what.endsWith("(eventual)");
    if (strong && this.#strongInFlight === 0) this.strong++;
    this.#inFlight++;
    if (strong) this.#strongInFlight++;
    let ended = false;
    return () => {
      if (!ended) {
        this.#inFlight--;
        if (strong) this.#strongInFlight--;
      }
      ended = true;
    };
  }

  /** The counts so far, as a plain object. */
  snapshot() {
    const { total, sequential, strong, conflicts } = this;
    return { total, sequential, strong, conflicts, byOp: { ...this.byOp } };
  }
}

/** Deno KV's list fetches this many entries per round trip unless told otherwise. */
const DEFAULT_LIST_BATCH = 100;

/**
 * The first element of a key (or of each key, or a list selector's prefix) for the trace, and
 * "(eventual)" for an eventual read.
 */
function describe(arg: unknown, options?: unknown): string {
  const eventual = (options as { consistency?: string } | undefined)?.consistency === "eventual";
  return `${keyNames(arg)}${eventual ? " (eventual)" : ""}`;
}

function keyNames(arg: unknown): string {
  if (!Array.isArray(arg)) {
    const selector = arg as { prefix?: Deno.KvKey; start?: Deno.KvKey } | undefined;
    return selector?.prefix ? `${String(selector.prefix[0])}/*` : "";
  }
  if (arg.length > 0 && Array.isArray(arg[0])) {
    return [...new Set(arg.map((k: Deno.KvKey) => String(k[0])))].join(",");
  }
  return String(arg[0] ?? "");
}

function wait(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** `kv` with `latencyMs` added to every round trip, each counted in `counter`. */
export function withLatency(
  kv: Deno.Kv,
  latencyMs: number,
  counter = new RoundTrips(),
): Deno.Kv {
  const roundTrip = async <T>(op: string, run: () => Promise<T>, what = ""): Promise<T> => {
    const end = counter.begin(op, what);
    try {
      await wait(latencyMs);
      return await run();
    } finally {
      end();
    }
  };

  function list<T>(
    selector: Deno.KvListSelector,
    options: Deno.KvListOptions = {},
  ): Deno.KvListIterator<T> {
    const iter = kv.list<T>(selector, options);
    const batch = options.batchSize ?? Math.min(options.limit ?? DEFAULT_LIST_BATCH, 500);
    let seen = 0;
    const pages = (async function* () {
      while (true) {
        // A new page is fetched before the first entry and after every full batch.
        const next = seen % batch === 0
          ? await roundTrip("list", () => iter.next(), describe(selector, options))
          : await iter.next();
        if (next.done) return;
        seen++;
        yield next.value;
      }
    })();
    Object.defineProperty(pages, "cursor", { get: () => iter.cursor });
    return pages as unknown as Deno.KvListIterator<T>;
  }

  function atomic(): Deno.AtomicOperation {
    const op = kv.atomic();
    const touched: string[] = [];
    for (const name of ["check", "set", "delete", "sum", "min", "max"] as const) {
      const method = op[name].bind(op) as (...args: unknown[]) => Deno.AtomicOperation;
      // deno-lint-ignore no-explicit-any
      (op as any)[name] = (...args: unknown[]) => {
        for (const arg of name === "check" ? args : args.slice(0, 1)) {
          const key = Array.isArray(arg) ? arg : (arg as { key: Deno.KvKey }).key;
          touched.push(`${name}:${String(key[0])}`);
        }
        method(...args);
        return op;
      };
    }
    const commit = op.commit.bind(op);
    op.commit = async () => {
      const res = await roundTrip("commit", commit, [...new Set(touched)].join(" "));
      if (!res.ok) counter.conflicts++;
      return res;
    };
    return op;
  }

  function watch(keys: Deno.KvKey[], options?: { raw?: boolean }) {
    const stream = kv.watch(keys, options);
    let first = true;
    return stream.pipeThrough(
      new TransformStream({
        async transform(chunk, controller) {
          if (first) await roundTrip("watch", () => Promise.resolve());
          first = false;
          controller.enqueue(chunk);
        },
      }),
    );
  }

  return new Proxy(kv, {
    get(target, prop) {
      switch (prop) {
        case "get":
        case "getMany":
        case "set":
        case "delete":
        case "enqueue": {
          const method = Reflect.get(target, prop, target) as (...args: unknown[]) => unknown;
          return (...args: unknown[]) =>
            roundTrip(
              prop,
              () => method.apply(target, args) as Promise<unknown>,
              describe(args[0], args[1]),
            );
        }
        case "list":
          return list;
        case "atomic":
          return atomic;
        case "watch":
          return watch;
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
