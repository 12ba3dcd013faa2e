/**
 * What a visitor sees agrees with itself, in a browser at 1280 px and 390 px on the demo data: one contest's
 * rules and currency everywhere, closed contests offer no picking, the countdown agrees with the
 * card, tied podium places, the live score, My entries, page titles, the confirmation receipt and
 * a cancelled contest.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  buyEntryOverApi,
  clickPlayers,
  postJson,
  readRows,
  validTeam,
} from "./visitor_helpers.ts";

interface Contest {
  id: number;
  name: string;
  status: string;
  currency: string;
  prizeType: string;
  customPrizeDescription: string | null;
  salaryCap: number;
  deadline: string;
}

async function rulesDialogCap(page: Page): Promise<string> {
  await page.getByRole("banner").getByRole("button", { name: "Rules" }).click();
  const dialog = page.getByRole("dialog", { name: "Fantasy Rules" });
  await dialog.waitFor();
  const cap = await dialog.locator("[data-salary-cap]").innerText();
  await dialog.getByRole("button", { name: "Got it" }).click();
  await dialog.waitFor({ state: "detached" });
  return cap;
}

Deno.test("[e2e] what a visitor sees agrees with itself", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const all: Contest[] = await (await fetch(`${base}/api/competitions`)).json();
    const byName = (part: string) => all.find((c) => c.name.includes(part))!;
    const sprint = byName("Matchday Sprint");
    const weekend = byName("Weekend Showdown");
    const hamper = byName("Hamper Draw");
    const live = byName("Live Challenge");
    const classic = byName("La Liga Classic");
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();

    await t.step("the header's Rules dialog states the contest's cap on its pages", async () => {
      await gotoHydrated(page, `${base}/team-selection/${sprint.id}`);
      assert.match(await rulesDialogCap(page), /\$40,000/);
      // Elsewhere no cap is named: contests use different ones.
      await gotoHydrated(page, `${base}/`);
      assert.match(await rulesDialogCap(page), /Each contest sets its own salary cap/);
    });

    await t.step("past 24 hours the countdown shows days, as the card does", async () => {
      const card = page.locator(`[data-contest-card="${weekend.id}"] [data-closing]`);
      const days = /Closes in (\d+)d/.exec(await card.innerText())![1];
      await gotoHydrated(page, `${base}/team-selection/${weekend.id}`);
      const countdown = await page.locator("[data-countdown]").innerText();
      assert.match(countdown, new RegExp(`^${days}d \\d\\d:\\d\\d:\\d\\d$`));
    });

    await t.step(
      "7 and 2: a GBP non-cash contest: £ everywhere, places show the prize",
      async () => {
        await gotoHydrated(page, `${base}/team-selection/${hamper.id}`);
        const list = page.getByRole("list", { name: "Player list" });
        assert.match(await list.innerText(), /£\d/);
        assert.equal((await list.innerText()).includes("$"), false);
        assert.match(await page.getByRole("list", { name: "Team rules" }).innerText(), /£45,000/);
        const rows = await readRows(page);
        await clickPlayers(page, validTeam(rows));
        await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
        await page.waitForURL(`**/payment/${hamper.id}`);
        await page.getByRole("heading", { name: "Complete Your Entry" }).waitFor();
        const prizes = await page.locator("section[aria-labelledby=prize-info-title]").innerText();
        assert.match(prizes, /1st/);
        assert.ok(prizes.includes(hamper.customPrizeDescription!));
        assert.equal(/£\d/.test(prizes), false, "no amount for a non-cash prize");
        assert.match(await page.locator("[data-picks]").innerText(), /£/);
      },
    );

    await t.step("3 and 4: a finished contest offers no picking and says why", async () => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await gotoHydrated(page, `${base}/?tab=results`);
        const card = page.locator(`[data-contest-card="${classic.id}"]`);
        await card.waitFor();
        assert.equal(await card.getByRole("link", { name: "Make Picks" }).count(), 0);
        assert.match(await card.innerText(), /This competition has finished\./);
        await gotoHydrated(page, `${base}/team-selection/${classic.id}`);
        assert.match(await page.locator("[data-closed]").innerText(), /has finished/);
        assert.equal(await page.locator("li[data-player-id]").count(), 0);
        assert.equal(await page.getByRole("button", { name: /Submit Team/ }).count(), 0);
        await assertNoHorizontalScroll(page);
      }
      await gotoHydrated(page, `${base}/payment/${classic.id}`);
      const notice = page.locator("[data-closed-checkout]");
      assert.match(await notice.innerText(), /closed for entries[\s\S]*has finished/);
      assert.equal(await page.getByLabel("Display Name").count(), 0);
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.step("tied places share a podium step", async () => {
      const rows: { rank: number; points: number; displayName: string }[] = await (
        await fetch(`${base}/api/competitions/${classic.id}/leaderboard`)
      ).json();
      const podiumRows = rows.filter((r) => r.rank <= 3 && r.points > 0);
      await gotoHydrated(page, `${base}/leaderboard/${classic.id}`);
      const steps = page.getByTestId("podium-step");
      assert.equal(await steps.count(), new Set(podiumRows.map((r) => r.rank)).size);
      // A step names two of its tied entries, in leaderboard order, and counts the rest.
      for (const rank of new Set(podiumRows.map((r) => r.rank))) {
        const tied = podiumRows.filter((r) => r.rank === rank);
        const step = page.locator(`[data-testid=podium-step][data-place="${rank}"]`);
        const names = await step.getByTestId("podium-entry").allInnerTexts();
        assert.equal(names.length, Math.min(tied.length, 2));
        tied.slice(0, 2).forEach((row, i) => assert.match(names[i], new RegExp(row.displayName)));
        const more = step.getByTestId("podium-more");
        if (tied.length > 2) assert.equal(await more.innerText(), `+${tied.length - 2} more`);
        else assert.equal(await more.count(), 0);
      }
      // The winner's step stands highest, whatever the ties beside it.
      const tops = await steps.evaluateAll((els) =>
        els.map((el) => [Number(el.getAttribute("data-place")), el.getBoundingClientRect().top])
      );
      const winner = tops.find(([place]) => place === 1)![1];
      for (const [place, top] of tops) if (place !== 1) assert.ok(top >= winner, `step ${place}`);
      await screenshot(page, "podium-1280", { fullPage: false });
    });

    await t.step("the live leaderboard names the fixture and its score", async () => {
      await gotoHydrated(page, `${base}/leaderboard/${live.id}`);
      const fixture = await page.getByTestId("fixture").innerText();
      assert.match(fixture, /Riverside Rovers/);
      assert.match(fixture, /Kingsbridge Athletic/);
      assert.match(await page.getByTestId("score").innerText(), /^\d+ – \d+$/);
    });

    let teamId = "";
    await t.step("the confirmation shows the amount paid and the e-mail sent", async () => {
      teamId = await buyEntryOverApi(base, sprint.id, {
        email: "receipt@example.com",
        teamName: "Receipt Rovers",
      });
      await gotoHydrated(page, `${base}/confirmation/${teamId}`);
      assert.equal(await page.locator("[data-amount-paid]").innerText(), "$5.00");
      assert.match(await page.locator("[data-email-sent]").innerText(), /r\*\*\*@example\.com/);
    });

    await t.step(
      "My entries lists this browser's entries and finds others by e-mail",
      async () => {
        await page.evaluate(
          ([cid, id]) =>
            localStorage.setItem(
              "userEntries",
              JSON.stringify([{ competitionId: cid, teamId: id }]),
            ),
          [sprint.id, teamId] as const,
        );
        await gotoHydrated(page, `${base}/`);
        await page.getByRole("banner").getByRole("link", { name: "My entries" }).click();
        await page.waitForURL("**/my-entries");
        const card = page.locator(`[data-my-entry="${teamId}"]`);
        await card.waitFor();
        assert.match(await card.innerText(), /Receipt Rovers/);
        assert.match(await card.innerText(), new RegExp(sprint.name));
        assert.equal(await card.locator("[data-entry-status]").innerText(), "Upcoming");
        await page.getByLabel("Email Address").fill("receipt@example.com");
        await page.getByRole("button", { name: "E-mail my entries" }).click();
        await page.getByRole("status").filter({ hasText: "If this address has entries" }).waitFor();
        await screenshot(page, "my-entries-1280");
        await page.setViewportSize({ width: 390, height: 844 });
        await gotoHydrated(page, `${base}/my-entries`);
        await card.waitFor();
        await assertNoHorizontalScroll(page);
        await screenshot(page, "my-entries-390");
        await card.getByRole("link", { name: "View team" }).click();
        await page.waitForURL(`**/confirmation/${teamId}`);
        await page.setViewportSize({ width: 1280, height: 900 });
      },
    );

    await t.step("every public page names itself in the tab title", async () => {
      const titles = new Set<string>();
      for (
        const path of [
          "/",
          `/team-selection/${sprint.id}`,
          `/payment/${sprint.id}`,
          `/confirmation/${teamId}`,
          `/leaderboard/${sprint.id}`,
          "/my-entries",
          "/email-test",
          "/no-such-page",
        ]
      ) {
        await gotoHydrated(page, `${base}${path}`);
        const title = await page.title();
        assert.notEqual(title, "Fantasy Contests", path);
        assert.match(title, / · Fantasy Contests$|^Fantasy Contests · /, path);
        titles.add(title);
      }
      assert.equal(titles.size, 8, "each page has its own title");
    });

    await t.step("a cancelled contest is shown as cancelled, with no picking", async () => {
      await buyEntryOverApi(base, weekend.id, {
        email: "fan@example.com",
        teamName: "Receipt Rovers",
      });
      await postJson(
        `${base}/api/admin/competitions/${weekend.id}/cancel`,
        { reason: "The match was postponed." },
        ADMIN_HEADERS,
      );
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await gotoHydrated(page, `${base}/?tab=results`);
        const card = page.locator(`[data-contest-card="${weekend.id}"]`);
        await card.waitFor();
        assert.match(await card.innerText(), /Cancelled/);
        assert.match(
          await card.innerText(),
          /The match was postponed\. Every entry has been refunded\./,
        );
        assert.equal(await card.getByRole("link", { name: "Make Picks" }).count(), 0);
        await gotoHydrated(page, `${base}/leaderboard/${weekend.id}`);
        assert.equal(await page.getByTestId("status").innerText(), "CANCELLED");
        assert.match(await page.getByTestId("cancelled").innerText(), /refunded/);
        await assertNoHorizontalScroll(page);
        await screenshot(page, `cancelled-leaderboard-${width}`);
      }
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
