/**
 * The notification settings on My entries in Chromium: e-mail opt-ins saved with their consent
 * time, push granted for the entry (the browser's push subscription is one made at a local push
 * service standing in for the vendor's: headless Chromium has none) and revoked, at 390 and
 * 1280 px; the same settings on the confirmation page of the browser that holds the entry's edit
 * secret, and none in another browser.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  LOCAL_PUSH_ENV,
  startTestPushService,
  type TestPushService,
} from "@/tests/helpers/push_service.ts";
import {
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  buyEntryWithToken,
} from "./visitor_helpers.ts";

type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * A browser context at `width` px allowed to show notifications, whose push subscription is
 * `subscription`: the vendor's push service is the edge of the world, so the subscription the
 * page gets is one made at the local push service (real P-256 keys), as the browser would hand
 * it over.
 */
async function pushContext(
  browser: Browser,
  base: string,
  width: number,
  subscription: Subscription,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.grantPermissions(["notifications"], { origin: base });
  await context.addInitScript((sub) => {
    const made = {
      endpoint: sub.endpoint,
      toJSON: () => ({ endpoint: sub.endpoint, keys: sub.keys }),
    };
    let current: typeof made | null = null;
    // deno-lint-ignore no-explicit-any
    const proto = (globalThis as any).PushManager?.prototype;
    if (proto) {
      proto.subscribe = () => Promise.resolve(current = made);
      proto.getSubscription = () => Promise.resolve(current);
    }
  }, subscription);
  return context;
}

/** Runs `body` against the app, a headless Chromium, the local push service, an open contest. */
async function withApp(
  body: (
    app: { base: string; browser: Browser; push: TestPushService; upcoming: number },
  ) => Promise<void>,
): Promise<void> {
  const server = await startServer({ env: LOCAL_PUSH_ENV });
  const browser = await launchBrowser();
  const push = startTestPushService();
  const base = server.url;
  try {
    const list: { id: number; status: string }[] = await (await fetch(`${base}/api/competitions`))
      .json();
    await body({ base, browser, push, upcoming: list.find((c) => c.status === "UPCOMING")!.id });
  } finally {
    await push.close();
    await browser.close();
    await server.stop();
  }
}

/** Makes `entry` this browser's own (with its edit secret when given), as paying for it does. */
async function remember(
  page: Page,
  base: string,
  entry: { competitionId: number; teamId: string; editToken?: string },
): Promise<void> {
  await page.goto(`${base}/`);
  await page.evaluate((e) => localStorage.setItem("userEntries", JSON.stringify([e])), entry);
}

Deno.test("[notifications] My entries: e-mail and push opt-ins per entry, saved with their time, push revoked, at 390 and 1280 px", async (t) => {
  await withApp(async ({ base, browser, push, upcoming }) => {
    for (const [i, width] of [390, 1280].entries()) {
      await t.step(`at ${width} px`, async () => {
        const entry = await buyEntryWithToken(base, upcoming, {
          email: `notify${i}@example.com`,
          teamName: `Notify Fan ${i}`,
        });
        const subscription = (await push.subscribe()).subscription;
        const context = await pushContext(browser, base, width, subscription);
        const page = await context.newPage();
        await remember(page, base, { competitionId: upcoming, ...entry });
        await page.goto(`${base}/my-entries`);
        const settings = page.locator(`[data-notify-settings="${entry.teamId}"]`);
        await settings.locator("summary").click();
        const deadline = settings.getByLabel("E-mail me 1 hour before the deadline");
        await deadline.waitFor();
        assert.equal(await deadline.isChecked(), false);

        await settings.getByLabel("E-mail me the result").check();
        await settings.getByRole("status").filter({ hasText: "Saved." }).waitFor();
        await deadline.check();
        await settings.locator("[data-consent-at]").nth(1).waitFor();
        assert.match(await settings.locator("[data-consent-at]").first().innerText(), /On since/);

        await settings.getByLabel("My picks scored").check();
        await settings.getByRole("status").filter({ hasText: "Push on for this browser." })
          .waitFor();
        await settings.locator("summary").filter({ hasText: "e-mail and push on" }).waitFor();

        const saved = await (await fetch(`${base}/api/notifications/${entry.editToken}`)).json();
        assert.equal(saved.resultEmail.source, "my-entries");
        assert.ok(Date.now() - Date.parse(saved.deadlineEmail.at) < 120_000);
        assert.equal(saved.pushScored.source, "my-entries");
        assert.equal(saved.pushEndpoint, subscription.endpoint);
        assert.equal(saved.pushFinal, null);

        await screenshot(page, `notifications-${width}`, { fullPage: width === 390 });

        await settings.getByRole("button", { name: "Turn off push for this entry" }).click();
        await settings.getByRole("status").filter({ hasText: "Push turned off" }).waitFor();
        assert.equal(await settings.getByLabel("My picks scored").isChecked(), false);
        const after = await (await fetch(`${base}/api/notifications/${entry.editToken}`)).json();
        assert.equal(after.pushEndpoint, null);
        assert.equal(after.pushScored, null);
        assert.ok(after.resultEmail, "the e-mails stay on");
        await context.close();
      });
    }
  });
});

Deno.test("[notifications] the confirmation page offers the entry's notifications to the browser that paid, and to no other, at 390 and 1280 px", async (t) => {
  await withApp(async ({ base, browser, push, upcoming }) => {
    for (const [i, width] of [390, 1280].entries()) {
      const entry = await buyEntryWithToken(base, upcoming, {
        email: `confirmed${i}@example.com`,
        teamName: `Confirmed Fan ${i}`,
      });
      const url = `${base}/confirmation/${entry.teamId}`;

      await t.step(`${width} px: the paying browser's card saves the opt-ins`, async () => {
        const subscription = (await push.subscribe()).subscription;
        const context = await pushContext(browser, base, width, subscription);
        const page = await context.newPage();
        await remember(page, base, { competitionId: upcoming, ...entry });
        await page.goto(url);
        // Open at once, loaded without a click.
        const card = page.locator(`[data-notify-settings="${entry.teamId}"]`);
        const result = card.getByLabel("E-mail me the result");
        await result.waitFor();
        assert.equal(await result.isChecked(), false);
        assert.equal(
          await card.getByLabel("E-mail me 1 hour before the deadline").isChecked(),
          false,
        );
        assert.equal(await card.getByLabel("My picks scored").isVisible(), true, "push offered");

        await result.check();
        await card.getByRole("status").filter({ hasText: "Saved." }).waitFor();
        await card.getByLabel("Final standings").check();
        await card.getByRole("status").filter({ hasText: "Push on for this browser." }).waitFor();
        const saved = await (await fetch(`${base}/api/notifications/${entry.editToken}`)).json();
        assert.equal(saved.resultEmail.source, "confirmation");
        assert.ok(Date.now() - Date.parse(saved.resultEmail.at) < 120_000);
        assert.equal(saved.pushFinal.source, "confirmation");
        assert.equal(saved.pushEndpoint, subscription.endpoint);
        assert.equal(saved.deadlineEmail, null);

        await page.reload();
        await card.locator("[data-consent-at]").nth(1).waitFor();
        assert.equal(await result.isChecked(), true, "saved: on after a reload");
        assert.match(await card.locator("[data-consent-at]").first().innerText(), /On since/);
        assert.equal(await card.getByLabel("Final standings").isChecked(), true);
        await card.locator("summary").filter({ hasText: "e-mail and push on" }).waitFor();
        await assertNoHorizontalScroll(page);
        await assertNoSeriousAxeViolations(page);
        await screenshot(page, `notifications-confirmation-${width}`);
        await context.close();
      });

      await t.step(`${width} px: a browser without the edit secret sees no card`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const asked: string[] = [];
        page.on("request", (r) => {
          if (r.url().includes("/api/notifications/")) asked.push(r.url());
        });
        // Knowing the team ID (a leaderboard row of its own, say) is not holding its edit secret.
        await remember(page, base, { competitionId: upcoming, teamId: entry.teamId });
        await gotoHydrated(page, url);
        await page.locator("[data-team-id]").filter({ hasText: entry.teamId }).waitFor();
        assert.equal(await page.locator("[data-notify-settings]").count(), 0);
        assert.equal(await page.getByText("Notifications", { exact: true }).count(), 0);
        assert.deepEqual(asked, [], "no settings asked for");
        await context.close();
      });
    }
  });
});
