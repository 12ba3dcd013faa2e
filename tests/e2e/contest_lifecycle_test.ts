import assert from "node:assert/strict";
import { type RulePlayer, rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import { launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { competitionPlayers, expectToast, login, payForEntry } from "./admin_helpers.ts";

interface Row {
  id: number;
  name: string;
  status: string;
  entries: number;
}

Deno.test("[lifecycle] test mode, deadline from kick-off, cancellation with refunds, and truthful pages at 1280 and 390 px", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await login(page, base);
    const rows: Row[] = await (await page.request.get(`${base}/api/admin/competitions`)).json();

    await t.step("the dashboard says payments are in test mode", async () => {
      const note = page.locator("[data-test-mode]");
      await note.waitFor();
      assert.match(await note.innerText(), /Test mode:.*no card is charged/);
    });

    await t.step(
      "choosing a match puts the deadline at its kick-off; a later one is warned",
      async () => {
        await page.goto(`${base}/admin/competitions/new`);
        const match = page.locator("select#matchId");
        await match.waitFor();
        const value = await match.locator("option").nth(1).getAttribute("value");
        await match.selectOption(value!);
        const date = await page.locator("input#deadlineDate").inputValue();
        assert.match(date, /^\d{4}-\d{2}-\d{2}$/);
        assert.equal(await page.locator("[data-deadline-warning]").count(), 0);
        const [y, m, d] = date.split("-").map(Number);
        const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
        await page.locator("input#deadlineDate").fill(next);
        await page.locator("[data-deadline-warning]").waitFor();
        assert.match(
          await page.locator("[data-deadline-warning]").innerText(),
          /after the match kicks off/,
        );
        await page.locator("input#entryFee").fill("0.2");
        await page.locator("input#name").fill("Penny Cup");
        await page.getByRole("button", { name: /Create Competition|Save/ }).first().click();
        await page.getByText("Entry fee must be at least $0.50").first().waitFor();
      },
    );

    const open = rows.find((r) => r.status === "UPCOMING" && r.entries === 0)!;
    let teamId = "";
    await t.step("cancelling refunds the entry; the dashboard shows it", async () => {
      const competition = await (await page.request.get(`${base}/api/competitions/${open.id}`))
        .json();
      const cheapest = (await competitionPlayers(base, open.id))
        .sort((a, b) => a.salary - b.salary).slice(0, 12);
      let picks: number[] = [];
      const choose = (from: number, chosen: typeof cheapest) => {
        if (picks.length) return;
        if (chosen.length === 5) {
          if (validateTeam(chosen as RulePlayer[], rulesOf(competition)).length === 0) {
            picks = chosen.map((p) => p.id);
          }
          return;
        }
        for (let i = from; i < cheapest.length; i++) choose(i + 1, [...chosen, cheapest[i]]);
      };
      choose(0, []);
      teamId = await payForEntry(base, {
        competitionId: open.id,
        playerIds: picks,
        teamName: "Rained Off",
        email: "rained.off@example.com",
      });
      await page.goto(`${base}/admin/dashboard`);
      await page.getByRole("button", { name: `Cancel ${open.name} and refund everyone` }).first()
        .click();
      await page.getByLabel(/Reason \(required/).fill("Storm over the stadium");
      await page.getByRole("button", { name: "Cancel and refund everyone" }).click();
      await expectToast(page, "Competition Cancelled");
      await page.locator("[data-cancellation=done]").first().waitFor();
      assert.match(
        await page.locator("[data-cancellation=done]").first().innerText(),
        /Refunded 1 of 1/,
      );
      await screenshot(page, "lifecycle-dashboard-1280", { fullPage: false });
    });

    for (const width of [1280, 390]) {
      await t.step(
        `at ${width} px the refunded entry's page says refunded, and a finished contest says Full time`,
        async () => {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${base}/confirmation/${teamId}`);
          const head = page.locator("[data-refunded]");
          await head.waitFor();
          const text = await head.innerText();
          assert.match(text, /Entry Refunded/);
          assert.match(text, /has been refunded to your card/);
          assert.match(text, /Storm over the stadium/);
          assert.equal(await page.getByText("Good luck!").count(), 0);
          await screenshot(page, `lifecycle-refunded-${width}`, { fullPage: false });
          const completed = rows.find((r) => r.status === "COMPLETED")!;
          await page.goto(`${base}/leaderboard/${completed.id}`);
          const state = page.getByTestId("match-state");
          if (await state.count()) assert.equal(await state.innerText(), "FULL TIME");
          assert.equal(await page.getByText("In play", { exact: false }).count(), 0);
        },
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
