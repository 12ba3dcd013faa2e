/**
 * The notification settings on My entries in Chromium: e-mail opt-ins saved with their consent
 * time, push granted for the entry (the browser's push subscription is one made at a local push
 * service standing in for the vendor's: headless Chromium has none) and revoked, at 390 and
 * 1280 px.
 */
import assert from "node:assert/strict";
import { launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { startTestPushService } from "@/tests/helpers/push_service.ts";
import { buyEntryWithToken } from "./visitor_helpers.ts";

Deno.test("[notifications] My entries: e-mail and push opt-ins per entry, saved with their time, push revoked, at 390 and 1280 px", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const push = startTestPushService();
  const base = server.url;
  try {
    const list: { id: number; status: string }[] = await (await fetch(`${base}/api/competitions`))
      .json();
    const upcoming = list.find((c) => c.status === "UPCOMING")!;
    for (const [i, width] of [390, 1280].entries()) {
      await t.step(`at ${width} px`, async () => {
        const entry = await buyEntryWithToken(base, upcoming.id, {
          email: `notify${i}@example.com`,
          teamName: `Notify Fan ${i}`,
        });
        const subscription = (await push.subscribe()).subscription;
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        await context.grantPermissions(["notifications"], { origin: base });
        // The vendor's push service is the edge of the world: the subscription the page gets is
        // one made at the local push service (real P-256 keys), as the browser would hand it over.
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
        const page = await context.newPage();
        await page.goto(`${base}/`);
        await page.evaluate((e) => {
          localStorage.setItem("userEntries", JSON.stringify([{ ...e }]));
        }, { competitionId: upcoming.id, teamId: entry.teamId, editToken: entry.editToken });
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
  } finally {
    await push.close();
    await browser.close();
    await server.stop();
  }
});
