import assert from "node:assert/strict";
import { commitGrouped } from "@/lib/store/group_commit.ts";

const set = (key: Deno.KvKey, value: unknown): Deno.KvMutation => ({ type: "set", key, value });

Deno.test("[group commit] concurrent writes are all committed, in fewer atomics", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let commits = 0;
    const counting = new Proxy(kv, {
      get(target, prop) {
        if (prop === "atomic") {
          return () => {
            commits++;
            return target.atomic();
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const oks = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        commitGrouped(counting, {
          checks: [{ key: ["k", i], versionstamp: null }],
          mutations: [set(["k", i], i)],
        })),
    );
    assert.deepEqual(oks, Array(50).fill(true));
    assert.ok(commits < 50, `${commits} atomics for 50 writes`);
    for (let i = 0; i < 50; i++) assert.equal((await kv.get(["k", i])).value, i);
  } finally {
    kv.close();
  }
});

Deno.test("[group commit] two writes checking the same key: exactly one wins", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const current = await kv.get(["counter"]);
    const write = (value: number) =>
      commitGrouped(kv, { checks: [current], mutations: [set(["counter"], value)] });
    const oks = await Promise.all([write(1), write(2), write(3)]);
    assert.equal(oks.filter(Boolean).length, 1);
    assert.equal((await kv.get(["counter"])).value, [1, 2, 3][oks.indexOf(true)]);
  } finally {
    kv.close();
  }
});

Deno.test("[group commit] a stale check fails only its own write", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(["a"], 0);
    const stale = await kv.get(["a"]);
    await kv.set(["a"], 1);
    // While this first write commits, the next three wait and are merged into one atomic.
    const first = commitGrouped(kv, { checks: [], mutations: [set(["first"], 1)] });
    const [bad, good1, good2] = await Promise.all([
      commitGrouped(kv, { checks: [stale], mutations: [set(["a"], 2)] }),
      commitGrouped(kv, {
        checks: [{ key: ["b"], versionstamp: null }],
        mutations: [set(["b"], 1)],
      }),
      commitGrouped(kv, { checks: [], mutations: [set(["c"], 1)] }),
    ]);
    assert.deepEqual([await first, bad, good1, good2], [true, false, true, true]);
    assert.equal((await kv.get(["a"])).value, 1);
    assert.equal((await kv.get(["b"])).value, 1);
    assert.equal((await kv.get(["c"])).value, 1);
  } finally {
    kv.close();
  }
});
