import assert from "node:assert/strict";
import { listDailyAnalytics } from "@/lib/db/analytics.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { makeAdminHeaders, makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

Deno.test("[api] POST /api/analytics counts known events and refuses others", async (t) => {
  const app = await makeTestApp();
  try {
    await t.step("a known event answers 204 and is counted today", async () => {
      for (const name of ["page_view", "page_view", "add_player"]) {
        const res = await app.request("/api/analytics", {
          method: "POST",
          json: { name, path: "/team-selection/1", competitionId: 1, props: { playerId: 4 } },
        });
        assert.equal(res.status, 204);
      }
      const [today] = await listDailyAnalytics(app.kv, { days: 1, now: new Date() });
      assert.deepEqual(today.counts, { page_view: 2, add_player: 1 });
    });

    await t.step("an unknown event name is a 400 with issues", async () => {
      const res = await app.request("/api/analytics", { method: "POST", json: { name: "hack" } });
      assert.equal(res.status, 400);
      const body = await readJsonBody(res);
      assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path), [["name"]]);
    });

    await t.step("a body that is not JSON is a 400", async () => {
      const res = await app.request("/api/analytics", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{nope",
      });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Invalid JSON body");
    });
  } finally {
    await app.close();
  }
});

Deno.test("[api] the admin funnel counts visitor sessions, each step a subset of the one before", async () => {
  const app = await makeTestApp();
  try {
    const send = async (session: string, name: string) => {
      const res = await app.request("/api/analytics", {
        method: "POST",
        json: { name, path: "/", session },
      });
      assert.equal(res.status, 204);
    };
    const journeys: Record<string, string[]> = {
      "visitor-a": ["page_view", "page_view", "page_view"],
      "visitor-b": ["page_view", "complete_team_selection", "view_payment_page", "purchase"],
      // Reloads of the payment page and a payment page reached straight from a shared link:
      "visitor-c": ["view_payment_page", "view_payment_page", "view_payment_page", "page_view"],
      "visitor-d": ["page_view", "complete_team_selection", "complete_team_selection"],
    };
    await Promise.all(
      Object.entries(journeys).map(async ([session, names]) => {
        for (const name of names) await send(session, name);
      }),
    );
    // Purchases are the entries paid that day, not what browsers say: visitor-b's "purchase"
    // event counts for nothing, the one paid entry counts.
    await makeEntry(app.kv, await makeCompetition(app.kv));
    const headers = await makeAdminHeaders(app.kv);
    const { days } = await readJsonBody(await app.request("/api/admin/analytics", { headers }));
    const today = days[days.length - 1];
    assert.deepEqual(
      [today.views, today.teamCompleted, today.paymentPage, today.purchases],
      [4, 3, 2, 1],
    );
    const bad = await app.request("/api/analytics", {
      method: "POST",
      json: { name: "page_view", session: "<script>" },
    });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[api] fake purchases move nothing; events are limited per session, not per address", async () => {
  const app = await makeTestApp();
  try {
    const send = (session: string | undefined, address = "198.51.100.7") =>
      app.request("/api/analytics", {
        method: "POST",
        json: { name: "purchase", path: "/", ...(session ? { session } : {}) },
        from: address,
      }).then(async (res) => {
        await res.body?.cancel();
        return res.status;
      });
    // A crowd behind one address: 200 visitors, 3 events each, all counted.
    const crowd: number[] = [];
    for (let i = 0; i < 200; i++) {
      for (let e = 0; e < 3; e++) crowd.push(await send(`crowd-session-${i}`));
    }
    assert.equal(crowd.filter((s) => s === 204).length, 600);
    // One session spamming is stopped at its limit, from whatever address.
    const spam: number[] = [];
    for (let i = 0; i < 150; i++) spam.push(await send("spam-session-1", `192.0.2.${i % 50}`));
    assert.equal(spam.filter((s) => s === 204).length, 120);
    assert.equal(spam.filter((s) => s === 429).length, 30);
    // Events without a session count by address.
    const anonymous: number[] = [];
    for (let i = 0; i < 125; i++) anonymous.push(await send(undefined, "192.0.2.200"));
    assert.equal(anonymous.filter((s) => s === 429).length, 5);
    const headers = await makeAdminHeaders(app.kv);
    const { days } = await readJsonBody(await app.request("/api/admin/analytics", { headers }));
    assert.equal(days[days.length - 1].purchases, 0, "no entry was paid");
  } finally {
    await app.close();
  }
});
