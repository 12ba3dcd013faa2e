/**
 * The storage engine's state in this isolate for one store: its batch queues (group_commit.ts,
 * entry_writes.ts), the roster compactions under way (roster.ts) and the push drainer a queued
 * scoring event wakes (notifications.ts). It rides on the store handle,
 * since every function of lib/db gets the store and nothing else: `withStoreState` (called once per
 * Services by `createServices`) gives the handle a state of its own, so two Services on one store
 * share no queue. A store used without Services (a script, a unit test calling lib/db directly)
 * gets its state on first use, kept on that handle.
 */

/** What the storage engine keeps between calls, per store handle. */
export interface StoreState {
  /** The store the state belongs to: the queues commit through it. */
  readonly kv: Deno.Kv;
  /** Batch queues by kind of write (`queuePerStore` names each kind). */
  readonly queues: Map<symbol, unknown>;
  /** Competitions whose roster is being compacted (one run per competition). */
  readonly compacting: Set<number>;
  /** Wakes this isolate's push drainer after a scoring event was queued (null: none runs). */
  pushKick: (() => void) | null;
}

const STATE = Symbol("storeState");

type Carrier = Deno.Kv & { [STATE]?: StoreState };

function newState(kv: Deno.Kv): StoreState {
  return { kv, queues: new Map(), compacting: new Set(), pushKick: null };
}

/**
 * `kv` with a fresh StoreState: a proxy that reads every property through to the store (methods
 * bound to it) and answers the state. Wrappers stacked on it (kv_wrapper.ts) pass it through.
 */
export function withStoreState(kv: Deno.Kv): Deno.Kv {
  const store = new Proxy(kv, {
    get(target, prop) {
      if (prop === STATE) return state;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const state = newState(store);
  return store;
}

/** The storage engine's state for `kv` (see the module's comment). */
export function storeState(kv: Deno.Kv): StoreState {
  const carrier = kv as Carrier;
  return carrier[STATE] ??= newState(kv);
}
