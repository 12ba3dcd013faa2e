/**
 * Per-isolate state lives in Services (lib/services.ts): two Services on one store share none of
 * it (two isolates), and one Services shares it across all its requests (the live hub, the
 * leaderboard API and the pages rank with one leaderboard cache).
 */
import assert from "node:assert/strict";
import { ensureAdmin } from "@/lib/auth/admins.ts";
import { getAdminFromRequest } from "@/lib/auth/guard.ts";
import { loadConfig } from "@/lib/config.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { commitGrouped } from "@/lib/store/group_commit.ts";
import { overrideKv } from "@/lib/store/kv_wrapper.ts";
import { storeState } from "@/lib/store/store_state.ts";
import { createServices, type Services } from "@/lib/services.ts";
import { makeTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

/** Two Services over one in-memory store, as two isolates of one deployment would have. */
async function twoIsolates(
  fn: (a: Services, b: Services, store: Deno.Kv) => Promise<void>,
): Promise<void> {
  const store = await Deno.openKv(":memory:");
  const config = loadConfig({ DENO_KV_PATH: ":memory:", DEMO_DATA: "0" });
  const a = createServices(config, store);
  const b = createServices(config, store);
  try {
    await fn(a, b, store);
  } finally {
    await a.hub.close();
    await b.hub.close();
    store.close();
  }
}

Deno.test("[services] two Services on one store: each ranks with its own leaderboard cache", async () => {
  await twoIsolates(async (a, b) => {
    const c = await makeCompetition(a.kv);
    await makeEntry(a.kv, c, { teamName: "Shared Store" });
    const first = await a.leaderboards.standings(c.id);
    assert.equal(first?.total, 1);
    assert.equal(await a.leaderboards.standings(c.id), first, "A keeps what it built");
    const other = await b.leaderboards.standings(c.id);
    assert.equal(other?.total, 1, "B sees the same store");
    assert.notEqual(other, first, "B built its own standings: nothing of A's cache is shared");
  });
});

Deno.test("[services] two Services on one store: batch queues, header checks and renders are their own", async () => {
  await twoIsolates(async (a, b, store) => {
    assert.notEqual(storeState(a.kv), storeState(b.kv));
    assert.notEqual(storeState(a.kv), storeState(store), "the bare store's state is not A's");
    assert.equal(await commitGrouped(a.kv, { checks: [], mutations: [set(["a"], 1)] }), true);
    assert.equal(storeState(a.kv).queues.size, 1, "A's write went through A's queue");
    assert.equal(storeState(b.kv).queues.size, 0, "B has no queue until it writes");
    assert.equal((await b.kv.get(["a"])).value, 1, "…and reads what A wrote");

    await ensureAdmin(a.kv, "admin", "a-long-password-1");
    const headers = { "x-admin-username": "admin", "x-admin-password": "a-long-password-1" };
    const req = new Request("http://localhost/api/admin/session", { headers });
    const admin = await getAdminFromRequest(req, a.kv, null, { checks: a.adminChecks });
    assert.equal(admin?.username, "admin");
    assert.equal(a.adminChecks.size, 1, "A keeps the successful check");
    assert.equal(b.adminChecks.size, 0, "B does not");

    assert.notEqual(a.pngRenders, b.pngRenders);
    assert.notEqual(a.payoutSealKey, b.payoutSealKey);
    assert.notEqual(a.runningJobs, b.runningJobs);
    assert.notEqual(a.oidcMetadata, b.oidcMetadata);
    assert.notEqual(a.hub.admission, b.hub.admission);
  });
});

Deno.test("[services] one Services: the leaderboard API, the team page and the live hub share one cache", async () => {
  const rosterLists: string[] = [];
  const app = await makeTestApp({
    wrapKv: (kv) =>
      overrideKv(kv, {
        list: ((selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
          const prefix = "prefix" in selector ? selector.prefix : [];
          if (prefix[0] === "roster" || prefix[0] === "roster_tail") {
            rosterLists.push(JSON.stringify(prefix));
          }
          return kv.list(selector, options);
        }) as Deno.Kv["list"],
      }),
  });
  try {
    const c = await makeCompetition(app.kv);
    await makeEntry(app.kv, c, { teamName: "Early Bird" });
    await updateCompetition(app.kv, c.id, { status: "LIVE" }); // teams locked: ownership shows
    const board = await app.request(`/api/competitions/${c.id}/leaderboard`);
    assert.equal(board.status, 200);
    assert.equal((await board.json()).length, 1);
    assert.ok(rosterLists.length > 0, "the first ranking read the roster");

    rosterLists.length = 0;
    const page = await app.request(`/team-selection/${c.id}`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
    const again = await app.request(`/api/competitions/${c.id}/leaderboard`);
    assert.equal(again.status, 200);
    await again.body?.cancel();
    assert.deepEqual(rosterLists, [], "no request built a second copy of the standings");
    const cached = await app.services.leaderboards.standings(c.id);
    assert.equal(cached?.total, 1);
    assert.equal(await app.services.leaderboards.standings(c.id), cached, "one cache, kept");
  } finally {
    await app.close();
  }
});

function set(key: Deno.KvKey, value: unknown): Deno.KvMutation {
  return { type: "set", key, value };
}
