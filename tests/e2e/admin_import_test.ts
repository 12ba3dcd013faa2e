import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { IMPORT_TOO_LARGE } from "@/lib/domain/schemas/imports.ts";
import { ADMIN_HEADERS } from "@/tests/helpers/app_processes.ts";
import { clubsCsv, importBody, playersCsv } from "@/tests/helpers/import_files.ts";
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

Deno.test("[admin] the Import page previews the 5,000-row file, and says why a file too large or not UTF-8 is refused", async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const clubs = await fetch(`${server.url}/api/admin/imports/apply`, {
      method: "POST",
      headers: { ...ADMIN_HEADERS, "content-type": "application/json" },
      body: JSON.stringify(importBody("clubs", clubsCsv())),
    });
    assert.equal(clubs.status, 200, await clubs.text());
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await login(page, server.url);
    await gotoHydrated(page, `${server.url}/admin/import`);

    await upload(page, "players-5000.csv", playersCsv(5000));
    assert.equal(await page.locator("tbody tr").count(), 5000);
    assert.match(
      await page.getByRole("list", { name: "Rows by action" }).innerText(),
      /5000 create/,
    );

    const file = page.getByLabel("File (.csv or .json)");
    await file.setInputFiles({
      name: "players-2mb.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(playersCsv(5000) + "x".repeat(2_000_000)),
    });
    const alert = page.getByRole("alert").filter({ hasText: IMPORT_TOO_LARGE });
    await alert.waitFor();
    assert.equal(await page.getByText("Reading the file").count(), 0);

    const latin1 = Buffer.from(
      "externalId,name,position,club,salary,imageUrl\nlatin-1,M\xfcller,GK,club-1,5000,\n",
      "latin1",
    );
    await file.setInputFiles({ name: "latin1.csv", mimeType: "text/csv", buffer: latin1 });
    await page.getByRole("alert").filter({
      hasText: "latin1.csv is not valid UTF-8 text: save it as UTF-8 and try again",
    }).waitFor();
    await screenshot(page, "admin-import-not-utf8");
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
