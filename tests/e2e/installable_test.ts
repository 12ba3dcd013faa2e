import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS, findChromium, gotoHydrated, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

Deno.test("[e2e] installable: manifest and service worker, the offline page, the last leaderboard kept", async (t) => {
  const server = await startServer();
  // A profile on disk, as a visitor's browser has: Chromium offers no install in incognito.
  const profile = await Deno.makeTempDir({ prefix: "installable-profile-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: await findChromium(),
    args: CHROMIUM_FLAGS,
    headless: true,
    viewport: { width: 390, height: 844 },
  });
  try {
    const page = await context.newPage();
    const competitions: { id: number; status: string }[] = await (
      await fetch(`${server.url}/api/competitions`)
    ).json();
    const live = competitions.find((c) => c.status === "LIVE")!;

    await t.step(
      "Chromium finds the app installable once the service worker controls the page",
      async () => {
        await gotoHydrated(page, `${server.url}/`);
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
        const cdp = await context.newCDPSession(page);
        const manifest = await cdp.send("Page.getAppManifest");
        assert.equal(manifest.url, `${server.url}/manifest.webmanifest`);
        assert.deepEqual(manifest.errors, []);
        const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
        assert.deepEqual(installabilityErrors, []);
      },
    );

    let rows = "";
    await t.step("a leaderboard opened online is kept with its scripts", async () => {
      await gotoHydrated(page, `${server.url}/leaderboard/${live.id}`);
      rows = await page.getByRole("table", { name: "Leaderboard" }).locator("tbody").innerText();
      assert.ok(rows.length > 0);
      await waitFor(
        "the leaderboard in the service worker's cache",
        () =>
          page.evaluate(async (path) => {
            const names = await caches.keys();
            const leaderboards = names.find((name) => name.startsWith("leaderboards-"));
            return leaderboards
              ? Boolean(await (await caches.open(leaderboards)).match(path))
              : false;
          }, `/leaderboard/${live.id}`),
      );
    });

    await context.setOffline(true);
    await t.step("offline, that leaderboard still shows its last standings", async () => {
      await page.goto(`${server.url}/leaderboard/${live.id}`);
      const table = page.getByRole("table", { name: "Leaderboard" });
      assert.equal(await table.locator("tbody").innerText(), rows);
      // It says so, with the time of the standings shown, instead of "Refreshing every 10 s".
      const stale = page.getByTestId("stale-standings");
      await stale.waitFor();
      assert.match(
        await stale.innerText(),
        /You are offline\. These standings are from .*\d\d:\d\d/,
      );
      const at = await stale.locator("time").getAttribute("datetime");
      assert.match(at ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/, "the time the server read them");
      assert.ok(Date.parse(`${at!.slice(0, -1)}:00Z`) <= Date.now());
      assert.equal(await page.getByText("Refreshing every 10 seconds").count(), 0);
      await screenshot(page, "installable-offline-leaderboard-390", { fullPage: false });
    });

    await t.step("offline, a page never opened shows the offline page", async () => {
      await page.goto(`${server.url}/team-selection/${live.id}`);
      await page.getByRole("heading", { name: "You're offline" }).waitFor();
      assert.equal(
        await page.getByRole("link", { name: "Try Again" }).getAttribute("href"),
        "/",
      );
      await screenshot(page, "installable-offline-page-390", { fullPage: false });
    });
    await context.setOffline(false);

    await t.step("back online, pages come from the network again", async () => {
      await page.goto(`${server.url}/team-selection/${live.id}`);
      assert.equal(await page.getByRole("heading", { name: "You're offline" }).count(), 0);
    });
  } finally {
    await context.close();
    await server.stop();
    await Deno.remove(profile, { recursive: true });
  }
});
