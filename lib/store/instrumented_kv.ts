/**
 * A Deno KV store whose round trips are measured: each get, getMany, list, commit, set and
 * delete is counted and timed (OpenTelemetry metrics `kv.operations`, `kv.duration`),
 * traced as a `kv.<op>` span under the request when telemetry is on, and a commit refused by
 * a failed check is counted as a conflict. A list is one operation from its first read to its
 * last (the batches it fetches are inside that span). Reads and writes pass through unchanged.
 */
import { aroundRoundTrips, overrideKv } from "@/lib/store/kv_wrapper.ts";
import {
  endSpan,
  inSpan,
  recordKvConflict,
  recordKvOperation,
  type Span,
  startSpan,
  TELEMETRY_ENABLED,
} from "@/lib/telemetry.ts";

const KV_SPAN = { "db.system": "deno_kv" };

async function measured<T>(op: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return TELEMETRY_ENABLED ? await inSpan(`kv.${op}`, KV_SPAN, run) : await run();
  } finally {
    recordKvOperation(op, performance.now() - started);
  }
}

function measuredAtomic(op: Deno.AtomicOperation): Deno.AtomicOperation {
  const commit = op.commit.bind(op);
  op.commit = () =>
    measured("commit", async () => {
      const res = await commit();
      if (!res.ok) recordKvConflict();
      return res;
    });
  return op;
}

/**
 * `list`'s iterator, measured from its first read to its end (done, an error, or a loop left
 * early); its `cursor` and every other property are the store's.
 */
function measuredList<T>(entries: Deno.KvListIterator<T>): Deno.KvListIterator<T> {
  let started = 0;
  let span: Span | null = null;
  const end = (err?: unknown) => {
    if (!started) return;
    recordKvOperation("list", performance.now() - started);
    if (span) endSpan(span, err);
    started = 0;
    span = null;
  };
  const next = async () => {
    if (!started) {
      started = performance.now();
      if (TELEMETRY_ENABLED) span = startSpan("kv.list", KV_SPAN);
    }
    try {
      const result = await entries.next();
      if (result.done) end();
      return result;
    } catch (err) {
      end(err);
      throw err;
    }
  };
  const leave = (value?: unknown) => {
    end();
    return Promise.resolve({ done: true as const, value: value as undefined });
  };
  return new Proxy(entries, {
    get(target, prop) {
      if (prop === "next") return next;
      if (prop === "return") return leave;
      if (prop === Symbol.asyncIterator) {
        return function (this: unknown) {
          return this;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `kv` with every round trip measured (see the module's doc). */
export function withKvTelemetry(kv: Deno.Kv): Deno.Kv {
  return overrideKv(kv, {
    ...aroundRoundTrips(kv, ["get", "getMany", "set", "delete"], measured),
    list: <T>(selector: Deno.KvListSelector, options?: Deno.KvListOptions) =>
      measuredList(kv.list<T>(selector, options)),
    atomic: () => measuredAtomic(kv.atomic()),
  });
}
