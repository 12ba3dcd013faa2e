/**
 * The store wrapper for several processes on one file (lib/store/busy_retry.ts) keeps Deno KV's list
 * semantics: read right after an entry, the iterator's cursor resumes after that entry, as the
 * paged Payments screen relies on (it took the entry again before).
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { isStoreBusy, withBusyRetry } from "@/lib/store/busy_retry.ts";
import { overrideKv } from "@/lib/store/kv_wrapper.ts";
import { pageFinalisedCheckouts } from "@/lib/db/checkouts.ts";
import { makeFinalisedCheckout } from "@/tests/helpers/fixtures.ts";

Deno.test("[busy retry] a list's cursor, read after an entry, resumes after it", async () => {
  const raw = await Deno.openKv(":memory:");
  try {
    for (let i = 0; i < 5; i++) await raw.set(["items", i], i);
    for (const kv of [raw, withBusyRetry(raw)]) {
      const iter = kv.list<number>({ prefix: ["items"] });
      const resumed: number[] = [];
      for await (const entry of iter) {
        const rest = kv.list<number>({ prefix: ["items"] }, { cursor: iter.cursor });
        const next = (await rest.next()).value as Deno.KvEntry<number> | undefined;
        resumed.push(next?.value ?? -1);
        assert.equal(next === undefined ? entry.value : next.value - 1, entry.value);
      }
      assert.deepEqual(resumed, [1, 2, 3, 4, -1], kv === raw ? "Deno KV" : "the wrapper");
    }
  } finally {
    raw.close();
  }
});

Deno.test("[busy retry] pages of entries through the wrapper hold each entry once", async () => {
  const kv = withBusyRetry(await Deno.openKv(":memory:"));
  try {
    for (let i = 0; i < 7; i++) {
      await makeFinalisedCheckout(kv, `pi_wrap_${i}`, `FFT-WRAP000${i}`, {
        email: "wrap@example.com",
        teamName: `Wrap ${i}`,
        amount: 500,
      });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await pageFinalisedCheckouts(kv, 3, cursor);
      seen.push(...page.checkouts.map((c) => c.paymentIntentId));
      cursor = page.next ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [0, 1, 2, 3, 4, 5, 6].map((i) => `pi_wrap_${i}`));
  } finally {
    kv.close();
  }
});

Deno.test("[busy retry] a write that met another connection's lock is told apart and tried again", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/store.sqlite`;
  const kv = await Deno.openKv(path);
  const other = new DatabaseSync(path); // another process's connection to the same file
  try {
    await kv.set(["a"], 1);
    // A refused argument is a TypeError too, and is no lock.
    const refused = await kv.set(["big"], "x".repeat(70_000)).catch((err) => err);
    assert.ok(refused instanceof TypeError && !isStoreBusy(refused), String(refused));

    other.exec("BEGIN EXCLUSIVE");
    const seen: unknown[] = [];
    // Under the wrapper: the store as it answers, the lock let go once it refused a write.
    const locked = overrideKv(kv, {
      set: (key: Deno.KvKey, value: unknown) =>
        kv.set(key, value).catch((err) => {
          seen.push(err);
          if (other.isTransaction) other.exec("COMMIT");
          throw err;
        }),
    });
    const res = await withBusyRetry(locked).set(["b"], 2);
    assert.ok(res.ok);
    assert.equal(seen.length, 1, "refused once while locked, then written");
    assert.ok(isStoreBusy(seen[0]), `Deno KV's error for a locked file: ${seen[0]}`);
    assert.equal((await kv.get(["b"])).value, 2);
  } finally {
    if (other.isTransaction) other.exec("ROLLBACK");
    other.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
