/**
 * Sharing, in a browser at 390 and 1280 px on the demo data: "Copy team ID" and "Share" on the
 * confirmation page and in the leaderboard's team dialog (the share sheet where the browser has
 * one, else the link is copied), a shared team link opening that team, and the preview images.
 */
import { possessive } from "@/lib/domain/format.ts";
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  buyEntryOverApi,
  closeToast,
  expectToast,
} from "./visitor_helpers.ts";

interface Contest {
  id: number;
  name: string;
  status: string;
}

const WIDTHS = [390, 1280];

/** A context that may use the clipboard; `share` stubs navigator.share, else there is none. */
async function shareContext(
  browser: Browser,
  base: string,
  width: number,
  share: "none" | "stub",
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await context.addInitScript((mode) => {
    const shared: ShareData[] = [];
    Object.defineProperty(window, "__shared", { value: shared });
    const share = mode === "stub"
      ? (data: ShareData) => {
        shared.push(data);
        return Promise.resolve();
      }
      : undefined;
    Object.defineProperty(Navigator.prototype, "share", { value: share, configurable: true });
  }, share);
  return context;
}

function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

function sharedData(page: Page): Promise<ShareData[]> {
  return page.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared);
}

/** Presses the button named `name` inside `scope` from the keyboard (focus, then Enter). */
async function pressButton(scope: Page | ReturnType<Page["locator"]>, name: string) {
  const button = scope.getByRole("button", { name, exact: true });
  await button.focus();
  await button.press("Enter");
}

Deno.test("[e2e] share: copy the team ID, share or copy the link, link previews", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const origin = `http://localhost:${new URL(base).port}`; // the configured origin (no PUBLIC_URL)
    const all: Contest[] = await (await fetch(`${base}/api/competitions`)).json();
    const upcoming = all.find((c) => c.name.includes("Matchday Sprint"))!;
    const live = all.find((c) => c.status === "LIVE")!;
    const teamId = await buyEntryOverApi(base, upcoming.id, {
      email: "share@example.com",
      teamName: "Share Rovers",
    });
    const board: { teamId: string; displayName: string }[] = await (
      await fetch(`${base}/api/competitions/${live.id}/leaderboard`)
    ).json();
    const liveTeam = board[0];
    const sharedLink = `${origin}/leaderboard/${upcoming.id}?team=${teamId}`;

    for (const width of WIDTHS) {
      await t.step(`${width} px: the confirmation page copies the ID, then the link`, async () => {
        const context = await shareContext(browser, base, width, "none");
        try {
          const page = await context.newPage();
          await gotoHydrated(page, `${base}/confirmation/${teamId}`);
          await pressButton(page, "Copy team ID");
          assert.match(await expectToast(page, "Team ID copied"), new RegExp(teamId));
          assert.equal(await clipboard(page), teamId);
          await closeToast(page);
          await page.getByRole("button", { name: "Share", exact: true }).click();
          await expectToast(page, "Link copied");
          assert.equal(await clipboard(page), sharedLink);
          await assertNoHorizontalScroll(page);
          await assertNoSeriousAxeViolations(page);
          await screenshot(page, `share-confirmation-${width}`, { fullPage: width === 1280 });
        } finally {
          await context.close();
        }
      });

      await t.step(`${width} px: with a share sheet, Share opens it with the link`, async () => {
        const context = await shareContext(browser, base, width, "stub");
        try {
          const page = await context.newPage();
          await gotoHydrated(page, `${base}/confirmation/${teamId}`);
          await pressButton(page, "Share");
          await page.waitForFunction(() =>
            (window as unknown as { __shared: ShareData[] }).__shared.length > 0
          );
          const [data] = await sharedData(page);
          assert.equal(data.url, sharedLink);
          assert.equal(data.title, `Share Rovers · ${upcoming.name}`);
          assert.equal(await page.locator("[data-toast]").count(), 0, "no 'Link copied' toast");
        } finally {
          await context.close();
        }
      });

      await t.step(
        `${width} px: a shared team link opens its dialog, which shares too`,
        async () => {
          const context = await shareContext(browser, base, width, "none");
          try {
            const page = await context.newPage();
            const link = `/leaderboard/${live.id}?team=${liveTeam.teamId}`;
            await gotoHydrated(page, `${base}${link}`);
            const dialog = page.getByRole("dialog", {
              name: `${possessive(liveTeam.displayName)} Team`,
            });
            await dialog.getByTestId("team-total").waitFor();
            await pressButton(dialog, "Copy team ID");
            await expectToast(page, "Team ID copied");
            assert.equal(await clipboard(page), liveTeam.teamId);
            await pressButton(dialog, "Share");
            await expectToast(page, "Link copied");
            assert.equal(await clipboard(page), `${base}${link}`);
            await screenshot(page, `share-team-dialog-${width}`, { fullPage: false });
          } finally {
            await context.close();
          }
        },
      );
    }

    await t.step("the preview images render in Chromium at 1200×630", async () => {
      const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
      try {
        for (
          const [name, path] of [
            ["share-preview-team", `/og/team/${teamId}.png`],
            ["share-preview-live-team", `/og/team/${liveTeam.teamId}.png`],
            ["share-preview-competition", `/og/competition/${upcoming.id}.png`],
          ]
        ) {
          const res = await page.goto(`${base}${path}`);
          assert.equal(res?.status(), 200, path);
          assert.equal(res?.headers()["content-type"], "image/png");
          const size = await page.locator("img").evaluate((img: HTMLImageElement) => ({
            width: img.naturalWidth,
            height: img.naturalHeight,
          }));
          assert.deepEqual(size, { width: 1200, height: 630 });
          await screenshot(page, name, { fullPage: false });
        }
      } finally {
        await page.close();
      }
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
