import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { formatPrice } from "@/lib/domain/format.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { contestTab } from "@/lib/client/contests.ts";
import {
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  clickPlayers,
  expectToast,
  readRows,
  recordAnalytics,
  validTeam,
} from "./visitor_helpers.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

function openFor(c: Competition): boolean {
  return c.status === "UPCOMING" && new Date(c.deadline).getTime() > Date.now() + 3_600_000;
}

Deno.test("[e2e] visitor journey: home → team → declined then paid → confirmation", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const events = await recordAnalytics(page);
    const list: Competition[] = await (await fetch(`${server.url}/api/competitions`)).json();
    const competition = list.find(openFor);
    assert.ok(competition, "the demo data has an open competition");
    const fee = formatPrice(competition.entryFee, competition.currency);

    await t.step("home: heading, sub-line, tabs, and cards in deadline order", async () => {
      await gotoHydrated(page, `${server.url}/`);
      await page.getByRole("heading", { name: "Play Fantasy Football With Your Community" })
        .waitFor();
      assert.equal(await page.getByText("Select a contest to build your fantasy team").count(), 1);
      const shown = await page.locator("[data-contest-card]").evaluateAll((cards) =>
        cards.map((c) => Number((c as HTMLElement).dataset.contestCard))
      );
      // The Open tab shows first, its contests by deadline, soonest first.
      const byDeadline = [...list].sort((a, b) => a.deadline.localeCompare(b.deadline));
      const ids = (tab: string) =>
        byDeadline.filter((c) => contestTab(c, Date.now()) === tab).map((c) => c.id);
      assert.deepEqual(shown, ids("open"));
      for (
        const [name, tab] of [["Open", "open"], ["Closed", "closed"], ["Live", "live"], [
          "Results",
          "results",
        ]]
      ) {
        const count = ids(tab).length;
        assert.equal(await page.getByRole("tab", { name: `${name} (${count})` }).count(), 1);
      }
      assert.equal(
        await page.getByRole("tab", { selected: true }).innerText(),
        `Open (${ids("open").length})`,
        "open contests come first",
      );
      await assertNoHorizontalScroll(page);
      await assertNoSeriousAxeViolations(page);
      await screenshot(page, "visitor-home-390");
    });

    await t.step("a hovered primary button keeps its text readable", async () => {
      const button = page.getByRole("link", { name: "Make Picks" }).first();
      const resting = await button.evaluate((el) => getComputedStyle(el).backgroundColor);
      await button.hover();
      await waitFor("the hover colour", () =>
        button.evaluate((el, before) => {
          const now = getComputedStyle(el).backgroundColor;
          return now !== before && el.getAnimations().length === 0;
        }, resting));
      await assertNoSeriousAxeViolations(page);
      await page.mouse.move(0, 0);
    });

    await t.step("a LIVE card links to the live leaderboard and has no 'Make Picks'", async () => {
      const live = list.find((c) => c.status === "LIVE");
      assert.ok(live, "the demo data has a LIVE competition");
      await page.getByRole("tab", { name: /^Live/ }).click();
      const card = page.locator(`[data-contest-card="${live.id}"]`);
      await card.waitFor();
      const text = await card.innerText();
      assert.match(text, /LIVE/);
      assert.match(text, /In progress/);
      assert.doesNotMatch(text, /Make Picks/);
      const link = card.getByRole("link", { name: "View Live Leaderboard" });
      assert.equal(await link.getAttribute("href"), `/leaderboard/${live.id}`);
    });

    await t.step("'Make Picks' opens team selection", async () => {
      await page.getByRole("tab", { name: /^Open/ }).click();
      const card = page.locator(`[data-contest-card="${competition.id}"]`);
      assert.match(await card.innerText(), /Closes in \d+[dh]/);
      await card.getByRole("link", { name: "Make Picks" }).click();
      await page.waitForURL(`**/team-selection/${competition.id}`);
      await gotoHydrated(page, page.url());
    });

    await t.step("team builder: 5 picks enable the submit button", async () => {
      await page.getByRole("heading", { name: "Your Team (0/5)" }).waitFor();
      const submit = page.getByRole("button", { name: "Submit Team (0/5)" });
      assert.equal(await submit.isDisabled(), true);
      assert.match(await page.locator("[data-countdown]").innerText(), /^\d{2,}:\d{2}:\d{2}$/);
      await clickPlayers(page, validTeam(await readRows(page)));
      await page.getByRole("heading", { name: "Your Team (5/5)" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Submit Team (5/5)" }).isEnabled(), true);
      await assertNoHorizontalScroll(page);
      await assertNoSeriousAxeViolations(page);
      await screenshot(page, "visitor-team-390", { fullPage: false });
    });

    await t.step("the picks survive a reload", async () => {
      await gotoHydrated(page, page.url());
      await page.getByRole("heading", { name: "Your Team (5/5)" }).waitFor();
    });

    await t.step("checkout: validation messages under the fields", async () => {
      await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
      await page.waitForURL(`**/payment/${competition.id}`);
      await page.getByRole("heading", { name: "Complete Your Entry" }).waitFor();
      const proceed = page.getByRole("button", { name: `Proceed to Payment: ${fee}` });
      const fieldErrors = page.locator("[data-field-error]");
      await proceed.click();
      // The form's schema loads on the first submit or keystroke: wait for its answer.
      await fieldErrors.first().waitFor();
      assert.deepEqual(await fieldErrors.allInnerTexts(), [
        "Display name must be at least 2 characters",
        "Please provide a valid email",
        "Please provide a valid email",
      ]);
      await page.getByLabel("Display Name").fill("Journey FC");
      await page.getByLabel("Email Address").fill("fan@example.com");
      await page.getByLabel("Confirm Email").fill("other@example.com");
      await proceed.click();
      await page.locator('[data-field-error="confirmEmail"]').waitFor();
      assert.deepEqual(await fieldErrors.allInnerTexts(), [
        "Emails do not match",
      ]);
      assert.equal(await page.locator("[data-picks] li").count(), 5);
      await assertNoHorizontalScroll(page);
      await assertNoSeriousAxeViolations(page);
    });

    await t.step("one display-name rule: the form says what the server would", async () => {
      await page.getByLabel("Confirm Email").fill("fan@example.com");
      await page.getByLabel("Display Name").fill("J");
      await page.getByRole("button", { name: `Proceed to Payment: ${fee}` }).click();
      await page.locator('[data-field-error="teamName"]').waitFor();
      assert.equal(
        await page.locator("[data-field-error]").innerText(),
        "Display name must be at least 2 characters",
      );
      await page.getByLabel("Display Name").fill("Journey FC");
    });

    await t.step("payment step in test mode, and back to information", async () => {
      await page.getByRole("button", { name: `Proceed to Payment: ${fee}` }).click();
      await page.getByRole("heading", { name: "Enter Payment Details" }).waitFor();
      // Chromium offers no Apple Pay: nothing is said about it, and nothing covers the picks.
      assert.equal(await page.locator("[data-apple-pay-note]").count(), 0);
      assert.equal(await page.getByText("Apple Pay Not Available").count(), 0);
      assert.match(
        await page.locator("[data-test-card-form]").innerText(),
        /Test mode — no real payment/,
      );
      await page.getByRole("button", { name: "Back to Information" }).click();
      assert.equal(await page.getByLabel("Display Name").inputValue(), "Journey FC");
      await page.getByRole("button", { name: `Proceed to Payment: ${fee}` }).click();
      await page.getByRole("heading", { name: "Enter Payment Details" }).waitFor();
      await assertNoSeriousAxeViolations(page);
    });

    await t.step("a declined card shows the provider message and 'Payment Failed'", async () => {
      await page.getByLabel("Card number").fill("4000 0000 0000 0002");
      await page.getByRole("button", { name: `Pay and Submit Entry: ${fee}` }).click();
      const toast = await expectToast(page, "Payment Failed");
      assert.match(toast, /Your payment could not be processed\. Please try again\./);
      assert.equal(await page.getByRole("alert").innerText(), "Your card was declined.");
      await assertNoHorizontalScroll(page);
      await screenshot(page, "visitor-payment-declined-390", { fullPage: false });
    });

    let teamId = "";
    await t.step("a good card pays, creates the entry and confirms it", async () => {
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByRole("button", { name: `Pay and Submit Entry: ${fee}` }).click();
      await page.waitForURL("**/confirmation/**");
      teamId = decodeURIComponent(page.url().split("/confirmation/")[1]);
      await page.getByRole("heading", { name: "You're All Set!" }).waitFor();
      assert.equal(await page.locator("[data-team-id]").innerText(), teamId);
      assert.match(await page.locator("main").innerText(), new RegExp(competition.name));
      assert.equal(await page.locator("[data-confirmation-players] li").count(), 5);
      const leaderboard = page.getByRole("link", { name: "View Leaderboard" });
      assert.equal(await leaderboard.getAttribute("href"), `/leaderboard/${competition.id}`);
      const button = await leaderboard.boundingBox();
      assert.ok(button && button.height >= 40 && button.width > 300, "a full-size button at 390px");
      await assertNoHorizontalScroll(page);
      await assertNoSeriousAxeViolations(page);
      await screenshot(page, "visitor-confirmation-390");
    });

    await t.step("the browser remembers the entry and forgets the checkout", async () => {
      const stored = await page.evaluate(() => ({
        entries: JSON.parse(localStorage.getItem("userEntries") ?? "[]"),
        email: sessionStorage.getItem("payment_email"),
        name: sessionStorage.getItem("team_name"),
        picks: sessionStorage.getItem("selectedTeam"),
      }));
      const editToken = stored.entries[0]?.editToken;
      assert.match(editToken ?? "", /^[0-9a-f]{32}$/, "the entry's private edit link is kept");
      assert.deepEqual(stored, {
        entries: [{ competitionId: competition.id, teamId, editToken }],
        email: null,
        name: null,
        picks: null,
      });
    });

    await t.step("analytics went to our API for every step", async () => {
      const steps = [
        "page_view",
        "select_competition",
        "view_competition",
        "add_player",
        "complete_team_selection",
        "view_payment_page",
        "payment_success",
        "purchase",
      ];
      await waitFor(
        `every step sent (got ${events.names.join(", ")}; ${events.requests} requests)`,
        () =>
          steps.every((name) => events.names.includes(name)) &&
          events.requests >= events.names.length,
        { timeoutMs: 5000 },
      );
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
