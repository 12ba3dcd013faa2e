import assert from "node:assert/strict";
import { createWithId, reserveIds } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { bumpLive, getLiveVersion } from "@/lib/store/live.ts";
import type { IdEntity } from "@/lib/store/keys.ts";

/** One id on its own: a create that writes nothing else. */
const nextId = (kv: Deno.Kv, entity: IdEntity) => createWithId(kv, entity, (id) => id);

Deno.test("[ids] counters hand out 1, 2, 3 per entity", async () => {
  const kv = await Deno.openKv(":memory:");
  assert.deepEqual([await nextId(kv, "teams"), await nextId(kv, "teams")], [1, 2]);
  assert.equal(await nextId(kv, "players"), 1);
  const parallel = await Promise.all(Array.from({ length: 15 }, () => nextId(kv, "matches")));
  assert.deepEqual(parallel.sort((a, b) => a - b), [...Array(15)].map((_, i) => i + 1));
  kv.close();
});

Deno.test("[ids] a reservation only holds when its atomic commits", async () => {
  const kv = await Deno.openKv(":memory:");
  const first = await reserveIds(kv, "prizes", 3);
  const second = await reserveIds(kv, "prizes", 2);
  assert.deepEqual(first.ids, [1, 2, 3]);
  assert.deepEqual(second.ids, [1, 2]);
  assert.equal((await first.claim(kv.atomic()).commit()).ok, true);
  assert.equal((await second.claim(kv.atomic()).commit()).ok, false);
  assert.deepEqual((await reserveIds(kv, "prizes", 1)).ids, [4]);

  const record = await createWithId(kv, "events", (id, op) => {
    op.set(["things", id], { id });
    return { id };
  });
  assert.deepEqual((await kv.get(["things", record.id])).value, { id: 1 });
  assert.equal((await kv.get(keys.ids("events"))).value, 1);
  kv.close();
});

Deno.test("[live] every bump moves the version", async () => {
  const kv = await Deno.openKv(":memory:");
  assert.equal(await getLiveVersion(kv, 1), null);
  await bumpLive(kv.atomic(), 1).commit();
  const first = await getLiveVersion(kv, 1);
  await bumpLive(kv.atomic(), 1).commit();
  const second = await getLiveVersion(kv, 1);
  assert.ok(first && second && second > first);
  assert.equal(await getLiveVersion(kv, 2), null);
  kv.close();
});
