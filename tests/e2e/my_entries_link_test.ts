import assert from "node:assert/strict";
import { launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";

Deno.test("[my entries] a ?add= link asks first and shows only the masked address, at 390 and 1280 px", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    const board = await (await fetch(`${base}/api/competitions/4/leaderboard`)).json();
    const teamId: string = board[0].teamId;
    for (const width of [390, 1280]) {
      await t.step(`at ${width} px`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        await page.goto(`${base}/my-entries?add=${teamId}`);
        const offer = page.locator("[data-add-from-link]");
        await offer.waitFor();
        const text = await offer.innerText();
        assert.match(text, /Add this entry to this browser\?/);
        assert.match(text, /entered with \S\*\*\*@example\.com/);
        assert.doesNotMatch(text, /fan\d+\.\d+@/, "never the whole address");
        assert.equal(await page.locator("[data-my-entry]").count(), 0, "nothing added yet");
        assert.equal(await page.evaluate(() => localStorage.getItem("userEntries")), null);
        await screenshot(page, `my-entries-add-${width}`, { fullPage: false });
        if (width === 390) {
          await page.getByRole("button", { name: "Not mine" }).click();
          await page.goto(`${base}/my-entries`);
          await page.locator("[data-empty-state]").waitFor();
        } else {
          await page.getByRole("button", { name: "Add to My entries" }).click();
          await page.locator(`[data-my-entry="${teamId}"]`).waitFor();
          await page.goto(`${base}/my-entries`);
          await page.locator(`[data-my-entry="${teamId}"]`).waitFor();
        }
        await context.close();
      });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
