import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { freePort, startServer } from "@/tests/helpers/server.ts";
import {
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  closeToast,
  expectToast,
} from "./visitor_helpers.ts";

Deno.test("[e2e] visitor pages: invalid checkout, missing entry, e-mail test", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });

    await t.step("checkout without 5 picks shows the invalid state", async () => {
      await gotoHydrated(page, `${server.url}/payment/1`);
      await page.getByRole("heading", { name: "Invalid Competition or Team" }).waitFor();
      await page.getByText("Please select a competition and 5 players first.").waitFor();
      assert.equal(
        await page.getByRole("link", { name: "Back to contests" }).getAttribute("href"),
        "/",
      );
      await assertNoHorizontalScroll(page);
      await assertNoSeriousAxeViolations(page);
      await screenshot(page, "visitor-invalid-checkout-390", { fullPage: false });
    });

    await t.step("the checkout's state is painted before its modules run", async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const cspErrors: string[] = [];
      try {
        const early = await context.newPage();
        early.on("console", (m) => {
          if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
        });
        await early.route("**/_frsh/js/**", (route) => route.abort());
        await early.goto(`${server.url}/payment/1`);
        const invalid = early.getByRole("heading", { name: "Invalid Competition or Team" });
        const form = early.getByRole("heading", { name: "Complete Your Entry" });
        assert.equal(await invalid.isVisible(), true, "no picks: the invalid state shows at once");
        assert.equal(await form.isVisible(), false);
        /** Reloads with five picks of `competitionId` in session storage. */
        const reloadWithPicks = async (competitionId: number) => {
          await early.evaluate((cid) =>
            sessionStorage.setItem(
              "selectedTeam",
              JSON.stringify({ competitionId: cid, playerIds: [1, 2, 3, 4, 5] }),
            ), competitionId);
          await early.reload();
        };
        await reloadWithPicks(1);
        assert.equal(await form.isVisible(), true, "5 picks: the form's loading state shows");
        assert.equal(await invalid.isVisible(), false);
        await reloadWithPicks(2);
        assert.equal(
          await invalid.isVisible(),
          true,
          "picks of another competition count for none",
        );
        assert.deepEqual(cspErrors, [], "the CSP allows the prepaint script by its hash");
      } finally {
        await context.close();
      }
    });

    await t.step("checkout of an unknown competition is invalid too (404)", async () => {
      const res = await page.goto(`${server.url}/payment/999999`);
      assert.equal(res?.status(), 404);
      await page.getByRole("heading", { name: "Invalid Competition or Team" }).waitFor();
    });

    await t.step("an unknown team ID shows 'Entry Not Found'", async () => {
      const res = await page.goto(`${server.url}/confirmation/FFT-NOPE0000`);
      assert.equal(res?.status(), 404);
      await page.getByRole("heading", { name: "Entry Not Found" }).waitFor();
      assert.equal(
        await page.getByRole("link", { name: "Return to contests" }).getAttribute("href"),
        "/",
      );
      await assertNoSeriousAxeViolations(page);
    });

    await t.step("e-mail test: an empty address asks for one", async () => {
      await gotoHydrated(page, `${server.url}/email-test`);
      const field = page.getByLabel("Email Address");
      assert.equal(await field.getAttribute("type"), "email");
      assert.equal(await field.getAttribute("required"), "");
      await page.getByRole("button", { name: "Send Test Email" }).click();
      const text = await expectToast(page, "Email Required");
      assert.match(text, /Please enter an email address to send the test email to\./);
      await closeToast(page);
      await assertNoHorizontalScroll(page);
      await assertNoSeriousAxeViolations(page);
    });

    await t.step("e-mail test: a sent message is confirmed", async () => {
      await page.getByLabel("Email Address").fill("fan@example.com");
      await page.getByRole("button", { name: "Send Test Email" }).click();
      const text = await expectToast(
        page,
        "Test email sent successfully. Please check your inbox.",
      );
      assert.doesNotMatch(text, /Error/);
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});

Deno.test("[e2e] visitor pages: empty store and a failing mail server", async (t) => {
  const server = await startServer({
    env: { DEMO_DATA: "0", SMTP_URL: `smtp://127.0.0.1:${freePort()}` },
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

    await t.step("home without competitions shows the empty state", async () => {
      await gotoHydrated(page, `${server.url}/`);
      await page.getByText("No competitions available.").waitFor();
      await page.getByText("Check back later for upcoming competitions.").waitFor();
      assert.equal(await page.locator("[data-skeleton-card]").count(), 0);
      await assertNoSeriousAxeViolations(page);
    });

    await t.step("e-mail test: the server's failure message is shown", async () => {
      await gotoHydrated(page, `${server.url}/email-test`);
      await page.getByLabel("Email Address").fill("fan@example.com");
      await page.getByRole("button", { name: "Send Test Email" }).click();
      assert.match(await expectToast(page, "Error"), /Failed to send test email/);
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
