/**
 * The one KV wrapper mechanism: replaced round trips run through their wrapper, stacked wrappers
 * all run, and what is not replaced reaches the store unchanged (bound to it; atomic checks hold).
 */
import assert from "node:assert/strict";
import { aroundRoundTrips, overrideKv } from "@/lib/store/kv_wrapper.ts";
import { withBusyRetry } from "@/lib/store/busy_retry.ts";

Deno.test("[kv wrapper] round trips run through each stacked wrapper, in order", async () => {
  const raw = await Deno.openKv(":memory:");
  try {
    const seen: string[] = [];
    const tag = (label: string, kv: Deno.Kv) =>
      overrideKv(
        kv,
        aroundRoundTrips(kv, ["get", "set"], async (name, run) => {
          seen.push(`${label}>${name}`);
          const result = await run();
          seen.push(`${label}<${name}`);
          return result;
        }),
      );
    const kv = tag("outer", withBusyRetry(tag("inner", raw)));
    await kv.set(["a"], 1);
    assert.equal((await kv.get<number>(["a"])).value, 1);
    assert.deepEqual(seen, [
      "outer>set",
      "inner>set",
      "inner<set",
      "outer<set",
      "outer>get",
      "inner>get",
      "inner<get",
      "outer<get",
    ]);
    // Not replaced by a wrapper: reaches the store, bound to it even when taken off the wrapper.
    const { getMany, list } = tag("plain", raw);
    assert.equal((await getMany([["a"]]))[0].value, 1);
    assert.deepEqual((await Array.fromAsync(list({ prefix: [] }))).map((e) => e.value), [1]);
    assert.equal(seen.length, 8, "getMany and list are not wrapped");
  } finally {
    raw.close();
  }
});

Deno.test("[kv wrapper] an atomic check through the wrappers still refuses a stale write", async () => {
  const raw = await Deno.openKv(":memory:");
  try {
    const kv = withBusyRetry(overrideKv(raw, {}));
    const first = await kv.get(["n"]);
    await raw.set(["n"], 1);
    const res = await kv.atomic().check(first).set(["n"], 2).commit();
    assert.equal(res.ok, false);
    assert.equal((await raw.get(["n"])).value, 1);
  } finally {
    raw.close();
  }
});
