/**
 * One way to wrap a Deno KV store: a proxy that replaces some of its methods and reads every other
 * property through to the store (methods bound to it). The busy-file retry, the telemetry and the
 * render cache's eventual reads are such wrappers, and can be stacked.
 */

type Replaceable = "get" | "getMany" | "set" | "delete" | "enqueue" | "list" | "atomic";
type RoundTrip = "get" | "getMany" | "set" | "delete" | "enqueue";

/** The methods a wrapper replaces. */
export type KvOverrides = Partial<Record<Replaceable, (...args: never[]) => unknown>>;

/** `kv` with the methods in `overrides` replaced. */
export function overrideKv(kv: Deno.Kv, overrides: KvOverrides): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      if (typeof prop === "string" && Object.hasOwn(overrides, prop)) {
        return overrides[prop as Replaceable];
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Overrides that run each named round trip of `kv` (one promise per call) through `around`. */
export function aroundRoundTrips(
  kv: Deno.Kv,
  names: readonly RoundTrip[],
  around: (name: RoundTrip, run: () => Promise<unknown>) => Promise<unknown>,
): KvOverrides {
  const overrides: KvOverrides = {};
  for (const name of names) {
    overrides[name] = (...args: unknown[]) =>
      around(name, () => (kv[name] as (...a: unknown[]) => Promise<unknown>).apply(kv, args));
  }
  return overrides;
}
