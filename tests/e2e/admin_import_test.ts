import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { axeViolations, expectToast, login } from "./admin_helpers.ts";

const GOOD = `externalId,name,position,club,salary,imageUrl
e2e-p1,Ada Forward,FWD,#1,7000,
e2e-p2,Ben Keeper,GK,#1,5000,
`;
const BAD = GOOD + "e2e-p3,Cal Nobody,STRIKER,#1,6000,\n";

async function upload(page: Page, name: string, content: string): Promise<void> {
  await page.getByLabel("File (.csv or .json)").setInputFiles({
    name,
    mimeType: "text/csv",
    buffer: Buffer.from(content),
  });
  await page.getByRole("table", { name: "Preview" }).waitFor();
}

Deno.test("[admin] the Import page previews, refuses errors, applies and lists history", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    for (const width of [390, 1280]) {
      await t.step(`at ${width} px`, async () => {
        // bypassCSP lets the test inject axe-core; the app's own scripts do not need it.
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          bypassCSP: true,
        });
        const page = await context.newPage();
        await login(page, server.url);
        await page.getByRole("link", { name: "Import" }).click();
        await page.waitForURL("**/admin/import");
        await gotoHydrated(page, `${server.url}/admin/import`);

        await upload(page, `bad-${width}.csv`, BAD);
        const rows = page.locator("tbody tr");
        assert.equal(await rows.count(), 3);
        assert.equal(await rows.nth(2).getAttribute("data-action"), "error");
        assert.match(await rows.nth(2).innerText(), /position/);
        assert.ok(await page.getByRole("button", { name: "Apply Import" }).isDisabled());
        await screenshot(page, `admin-import-preview-errors-${width}`);

        await upload(page, `good-${width}.csv`, GOOD);
        const first = width === 390;
        const action = first ? "create" : "unchanged";
        assert.equal(await rows.nth(0).getAttribute("data-action"), action);
        if (first) {
          await page.getByRole("button", { name: "Apply Import" }).click();
          await expectToast(page, "Import applied", "2 rows of good-390.csv");
          await page.getByRole("progressbar", { name: "Import progress" }).waitFor();
          assert.equal(
            await page.getByRole("progressbar").getAttribute("aria-valuenow"),
            "100",
          );
        } else {
          assert.ok(await page.getByRole("button", { name: "Apply Import" }).isDisabled());
          assert.match(await page.getByText("Nothing to change.").innerText(), /Nothing/);
        }
        const history = page.getByRole("list", { name: "Import history" });
        await history.getByText("good-390.csv").waitFor();
        assert.match(await history.innerText(), /by admin/);
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - globalThis.innerWidth
        );
        assert.equal(overflow, 0, "the page scrolls sideways");
        assert.deepEqual(await axeViolations(page), []);
        await screenshot(page, `admin-import-${width}`);
        await context.close();
      });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
