import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";

const RULES = [
  "Select exactly 5 players",
  "Maximum 3 players from the same team",
  "At least 1 goalkeeper (GK)",
  "At least 1 defender (DEF)",
  "Maximum 2 forwards (FWD)",
];

function activeIsInsideDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => !!document.activeElement?.closest("[role=dialog]"));
}

/** Waits (up to 2 s) until the focused element's text is `text`. */
async function expectFocusOn(page: Page, text: string): Promise<void> {
  try {
    await page.waitForFunction(
      (t) => document.activeElement?.textContent?.trim() === t,
      text,
      { timeout: 2000 },
    );
  } catch {
    const actual = await page.evaluate(() => document.activeElement?.tagName);
    assert.fail(`expected focus on "${text}", got <${actual}>`);
  }
}

Deno.test("[e2e] the Rules dialog opens from the header and closes", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const cspViolations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
    await gotoHydrated(page, `${server.url}/`);
    const rulesButton = page.getByRole("button", { name: "Rules", exact: true });
    const dialog = page.getByRole("dialog", { name: "Fantasy Rules" });

    await t.step("opens with its title, description and the 5 rules", async () => {
      await rulesButton.click();
      await dialog.waitFor();
      assert.equal(await dialog.getAttribute("aria-modal"), "true");
      const text = await dialog.innerText();
      assert.match(text, /Build your 5-player fantasy team and compete for prizes/);
      assert.deepEqual(
        await dialog.locator("ol li").allInnerTexts(),
        RULES.map((r, i) => `${i + 1}\n${r}`),
      );
      // No contest at hand: contests use different caps, so none is named.
      assert.match(text, /Each contest sets its own salary cap/);
      assert.doesNotMatch(text, /\$\d/);
      assert.ok(await activeIsInsideDialog(page), "focus moved into the dialog");
      const backdrop = await page.locator("[data-dialog-backdrop]").boundingBox();
      assert.deepEqual(backdrop, { x: 0, y: 0, width: 390, height: 844 }, "covers the viewport");
      const panel = await dialog.boundingBox();
      assert.ok(panel && panel.y > 0 && panel.y + panel.height < 844, "fully on screen");
      await screenshot(page, "rules-dialog-390", { fullPage: false });
    });

    await t.step("the points table unfolds with the scoring values", async () => {
      const table = dialog.locator("[data-scoring] table");
      assert.equal(await table.isVisible(), false, "folded at first");
      await dialog.getByText("How points are scored").click();
      await table.waitFor();
      const goal = await table.getByRole("row", { name: /^Goal/ }).innerText();
      assert.deepEqual(goal.split(/\s+/), ["Goal", "+6", "+6", "+5", "+4"]);
      const panel = await dialog.boundingBox();
      assert.ok(panel && panel.y >= 0 && panel.y + panel.height <= 844, "still fits the screen");
      await dialog.getByText("How points are scored").click();
    });

    await t.step("keeps Tab focus inside the dialog", async () => {
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press("Tab");
        assert.ok(await activeIsInsideDialog(page), `Tab ${i + 1} stayed inside`);
      }
      await page.keyboard.press("Shift+Tab");
      assert.ok(await activeIsInsideDialog(page), "Shift+Tab stayed inside");
    });

    await t.step("'Got it' closes it and focus returns to the Rules button", async () => {
      await dialog.getByRole("button", { name: "Got it" }).click();
      await dialog.waitFor({ state: "detached" });
      await expectFocusOn(page, "Rules");
    });

    await t.step("reopens and closes with Escape", async () => {
      await rulesButton.click();
      await dialog.waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await expectFocusOn(page, "Rules");
    });

    await t.step("Escape and Tab work while the focus is outside the dialog", async () => {
      await rulesButton.click();
      await dialog.waitFor();
      await rulesButton.evaluate((el) => (el as HTMLElement).focus());
      assert.equal(await activeIsInsideDialog(page), false, "focus moved behind the dialog");
      await page.keyboard.press("Tab");
      assert.ok(await activeIsInsideDialog(page), "Tab brought the focus back into the dialog");
      await rulesButton.evaluate((el) => (el as HTMLElement).focus());
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("losing the focused element puts the focus on the dialog itself", async () => {
      await rulesButton.click();
      await dialog.waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      assert.ok(await activeIsInsideDialog(page), "focus went back to the dialog");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("a click on the backdrop closes it", async () => {
      await rulesButton.click();
      await dialog.waitFor();
      await page.mouse.click(5, 5);
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("the page runs under its CSP without violations", () => {
      assert.deepEqual(cspViolations, []);
    });

    await t.step("no horizontal scrolling at 390px", async () => {
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.equal(overflow, 0);
    });

    await t.step("on a contest's page: that contest's cap and its captain rule", async () => {
      const list = await (await fetch(`${server.url}/api/competitions`)).json();
      const contests = (Array.isArray(list) ? list : list.competitions) as {
        id: number;
        status: string;
        salaryCap: number;
        captainMultiplier?: number | null;
      }[];
      const withCaptains = contests.find((c) => c.status === "UPCOMING" && c.captainMultiplier);
      const without = contests.find((c) => c.status === "UPCOMING" && !c.captainMultiplier);
      assert.ok(withCaptains && without, "the demo has both kinds of contest");
      for (const c of [withCaptains, without]) {
        await gotoHydrated(page, `${server.url}/team-selection/${c.id}`);
        await rulesButton.click();
        await dialog.waitFor();
        await dialog.locator("[data-salary-cap] strong").waitFor();
        const cap = await dialog.locator("[data-salary-cap] strong").innerText();
        assert.equal(Number(cap.replace(/[^\d]/g, "")), c.salaryCap);
        const captainRule = dialog.locator("[data-captain-rule]");
        if (c.captainMultiplier) {
          assert.match(await captainRule.innerText(), new RegExp(`count ×${c.captainMultiplier}`));
        } else assert.equal(await captainRule.count(), 0);
        await dialog.getByRole("button", { name: "Got it" }).click();
        await dialog.waitFor({ state: "detached" });
      }
    });

    await t.step("the logo goes home", async () => {
      await page.goto(`${server.url}/no-such-page`);
      assert.equal(await page.getByRole("heading", { name: "Page Not Found" }).count(), 1);
      await screenshot(page, "not-found-390");
      await page.getByRole("link", { name: "Fantasy Contests home" }).click();
      await page.waitForURL(`${server.url}/`);
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
