/**
 * A Deno KV store whose round trips are measured: each get, getMany, commit, set and delete is
 * counted and timed (OpenTelemetry metrics `kv.operations`, `kv.duration`),
 * traced as a `kv.<op>` span under the request when telemetry is on, and a commit refused by
 * a failed check is counted as a conflict. Reads and writes pass through unchanged.
 */
import { aroundRoundTrips, overrideKv } from "@/lib/db/kv_wrapper.ts";
import { inSpan, recordKvConflict, recordKvOperation, TELEMETRY_ENABLED } from "@/lib/telemetry.ts";

async function measured<T>(op: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return TELEMETRY_ENABLED
      ? await inSpan(`kv.${op}`, { "db.system": "deno_kv" }, run)
      : await run();
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

/** `kv` with every round trip measured (see the module's doc). */
export function withKvTelemetry(kv: Deno.Kv): Deno.Kv {
  return overrideKv(kv, {
    ...aroundRoundTrips(kv, ["get", "getMany", "set", "delete"], measured),
    atomic: () => measuredAtomic(kv.atomic()),
  });
}
