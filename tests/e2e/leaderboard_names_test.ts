/**
 * Entries sharing a display name (made before names were unique per contest) are told apart on
 * the leaderboard page at 390 and 1280 px: each row shows its team ID after the name.
 */
import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { makeCompetition, makeEntry, makeLegacyEntry } from "@/tests/helpers/fixtures.ts";
import { assertNoHorizontalScroll, assertNoSeriousAxeViolations } from "./visitor_helpers.ts";
import type { Entry } from "@/lib/domain/types.ts";

Deno.test("[e2e] leaderboard: three 'Commit Probe' entries can be told apart", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "names-e2e-" });
  const path = `${dir}/app.kv`;
  const kv = await Deno.openKv(path);
  const c = await makeCompetition(kv, { name: "Probe Cup" });
  const probes: Entry[] = [];
  for (let i = 0; i < 3; i++) probes.push(await makeLegacyEntry(kv, c, "Commit Probe"));
  await makeEntry(kv, c, { teamName: "Only One" });
  kv.close();
  const server = await startServer({ env: { DENO_KV_PATH: path, DEMO_DATA: "0" } });
  const browser = await launchBrowser();
  try {
    for (const width of [390, 1280]) {
      await t.step(`${width} px: each row names its team ID`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 844 } });
        try {
          await gotoHydrated(page, `${server.url}/leaderboard/${c.id}`);
          for (const probe of probes) {
            const row = page.locator(`tr[data-team-id="${probe.teamId}"]`);
            assert.equal(
              (await row.locator("td").nth(1).innerText()).trim(),
              `Commit Probe · ${probe.teamId.slice(4)}`,
            );
          }
          const only = page.locator("tr", { hasText: "Only One" });
          assert.equal((await only.locator("td").nth(1).innerText()).trim(), "Only One");
          await assertNoHorizontalScroll(page);
          await assertNoSeriousAxeViolations(page);
          await screenshot(page, `leaderboard-names-${width}`, { fullPage: false });
        } finally {
          await page.close();
        }
      });
    }
  } finally {
    await browser.close();
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
