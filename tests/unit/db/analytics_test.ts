import assert from "node:assert/strict";
import { analyticsKey, listDailyAnalytics, recordAnalyticsEvent } from "@/lib/db/analytics.ts";

Deno.test("[analytics] counts events per UTC day and name", async (t) => {
  const kv = await Deno.openKv(":memory:");
  try {
    const monday = new Date("2026-03-02T23:59:59Z");
    const tuesday = new Date("2026-03-03T00:00:01Z");

    await t.step("concurrent records all count", async () => {
      await Promise.all(
        Array.from({ length: 20 }, () => recordAnalyticsEvent(kv, { name: "page_view" }, monday)),
      );
      await recordAnalyticsEvent(kv, { name: "purchase", competitionId: 3 }, monday);
      await recordAnalyticsEvent(kv, { name: "page_view", path: "/" }, tuesday);
      const stored = await kv.get<Deno.KvU64>(analyticsKey("2026-03-02", "page_view"));
      assert.equal(stored.value?.value, 20n);
    });

    await t.step("lists every day of the window, oldest first, empty days included", async () => {
      const days = await listDailyAnalytics(kv, { days: 3, now: new Date("2026-03-03T12:00:00Z") });
      assert.deepEqual(days, [
        { day: "2026-03-01", counts: {} },
        { day: "2026-03-02", counts: { page_view: 20, purchase: 1 } },
        { day: "2026-03-03", counts: { page_view: 1 } },
      ]);
    });

    await t.step("days outside the window are left out", async () => {
      const days = await listDailyAnalytics(kv, { days: 1, now: monday });
      assert.deepEqual(days, [{ day: "2026-03-02", counts: { page_view: 20, purchase: 1 } }]);
    });
  } finally {
    kv.close();
  }
});
