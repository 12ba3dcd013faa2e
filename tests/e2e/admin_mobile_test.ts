import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { login } from "./admin_helpers.ts";

interface Row {
  id: number;
  status: string;
  matchId: number | null;
}

/** How far the page scrolls sideways beyond the viewport (0 when it does not). */
async function sidewaysOverflow(page: Page): Promise<number> {
  return await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
}

Deno.test("[admin] no admin page scrolls sideways on a 390 px phone", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();

    await t.step("the login page fits", async () => {
      await gotoHydrated(page, `${base}/admin/login`);
      assert.equal(await sidewaysOverflow(page), 0);
    });

    await login(page, base);
    const rows: Row[] = await (await page.request.get(`${base}/api/admin/competitions`)).json();
    const used = rows.find((r) => r.matchId !== null)!;
    const live = rows.find((r) => r.status === "LIVE")!;
    const pages = [
      "/admin/dashboard",
      "/admin/competitions/new",
      `/admin/competitions/edit/${used.id}`,
      `/admin/competitions/${used.id}/players`,
      `/admin/competitions/${used.id}/prizes`,
      `/admin/competitions/${used.id}/events`,
      `/admin/competitions/${live.id}/events`,
      "/admin/matches",
      "/admin/matches/new",
      `/admin/matches/${used.matchId}`,
      "/admin/player-performances",
      "/admin/clubs",
    ];
    for (const path of pages) {
      await t.step(`${path} fits`, async () => {
        await gotoHydrated(page, `${base}${path}`);
        assert.equal(await sidewaysOverflow(page), 0, `${path} scrolls sideways`);
      });
    }

    await t.step("matches, players and events read as cards with their actions", async () => {
      await gotoHydrated(page, `${base}/admin/matches`);
      const match = page.locator(`tr[data-match-id="${used.matchId}"]`);
      await match.getByRole("link", { name: /^Edit / }).waitFor();
      await match.getByRole("button", { name: /^Delete / }).waitFor();
      await screenshot(page, "admin-mobile-matches", { fullPage: false });

      await gotoHydrated(page, `${base}/admin/competitions/${used.id}/players`);
      const player = page.locator("tr[data-player-id]").first();
      await player.getByLabel(/^Select /).check();
      assert.equal(await player.getAttribute("data-selected"), "true");
      await page.getByLabel(/^Salary of /).first().waitFor();
      await screenshot(page, "admin-mobile-players", { fullPage: false });

      await gotoHydrated(page, `${base}/admin/competitions/${live.id}/events`);
      await page.getByRole("list", { name: "Recent events" }).waitFor();
      assert.ok(await page.getByRole("button", { name: "Create Event" }).isEnabled());
      await screenshot(page, "admin-mobile-events");
      await page.getByRole("list", { name: "Recent events" }).scrollIntoViewIfNeeded();
      await screenshot(page, "admin-mobile-events-list", { fullPage: false });
    });

    await t.step("player performances scroll inside their table, not the page", async () => {
      await gotoHydrated(page, `${base}/admin/player-performances`);
      await page.getByLabel("Competition").selectOption(String(used.id));
      await page.locator("tr[data-player-id]").first().waitFor();
      assert.equal(await sidewaysOverflow(page), 0);
      await screenshot(page, "admin-mobile-performances", { fullPage: false });
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
