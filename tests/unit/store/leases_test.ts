import assert from "node:assert/strict";
import { keepLease, takeLease } from "@/lib/store/leases.ts";
import { keys } from "@/lib/store/keys.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

interface Lease {
  owner: string;
  until: number;
}

async function leaseOn(kv: Deno.Kv, name: string): Promise<Lease | null> {
  return (await kv.get<Lease>(keys.lease(name))).value;
}

Deno.test("[leases] a kept lease outlives its length while the work goes on, then lapses or goes", async (t) => {
  const kv = await Deno.openKv(":memory:");
  try {
    await t.step("renewed every third of its length: no one else takes it meanwhile", async () => {
      assert.equal(await takeLease(kv, "work", "a", 1500), true);
      const first = (await leaseOn(kv, "work"))!.until;
      const kept = keepLease(kv, "work", "a", 1500);
      // It is renewed until after its first end: the holder keeps it past its length.
      await waitFor("renewed past its first end", async () => {
        const now = await leaseOn(kv, "work");
        return now?.owner === "a" && now.until > first + 1500 && Date.now() > first;
      });
      assert.equal(await takeLease(kv, "work", "b", 1500), false, "another holder is refused");
      await kept.stop(false);
    });

    await t.step(
      "stopped without release, it lapses one length after the last renewal",
      async () => {
        const last = (await leaseOn(kv, "work"))!.until;
        await waitFor("the lease lapsed", () => Date.now() > last);
        assert.equal(await takeLease(kv, "work", "b", 300), true, "taken over once lapsed");
      },
    );

    await t.step("stopped with release, it is gone at once", async () => {
      const kept = keepLease(kv, "work", "b", 300);
      await kept.stop(true);
      assert.equal(await leaseOn(kv, "work"), null);
      assert.equal(await takeLease(kv, "work", "c", 300), true);
    });
  } finally {
    kv.close();
  }
});
