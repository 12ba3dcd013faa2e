import assert from "node:assert/strict";
import { type RulePlayer, rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import { launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { axeViolations, competitionPlayers, login, payForEntry } from "./admin_helpers.ts";

interface Row {
  id: number;
  name: string;
  status: string;
  entries: number;
}

Deno.test("[admin payments] the ledger and each payment, searchable and sorted, at 1280 and 390 px", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    await login(page, base);
    const rows: Row[] = await (await page.request.get(`${base}/api/admin/competitions`)).json();
    const open = rows.find((r) => r.status === "UPCOMING" && r.entries === 0)!;
    const competition = await (await page.request.get(`${base}/api/competitions/${open.id}`))
      .json();
    const cheapest = (await competitionPlayers(base, open.id))
      .sort((a, b) => a.salary - b.salary).slice(0, 12);
    const teams: number[][] = [];
    const choose = (from: number, chosen: typeof cheapest) => {
      if (teams.length === 2) return;
      if (chosen.length === 5) {
        if (validateTeam(chosen as RulePlayer[], rulesOf(competition)).length === 0) {
          teams.push(chosen.map((p) => p.id));
        }
        return;
      }
      for (let i = from; i < cheapest.length; i++) choose(i + 1, [...chosen, cheapest[i]]);
    };
    choose(0, []);
    assert.equal(teams.length, 2, "two valid teams under the cap");
    for (const [i, playerIds] of teams.entries()) {
      await payForEntry(base, {
        competitionId: open.id,
        playerIds,
        teamName: `Ledger Fan ${i + 1}`,
        email: `ledger.fan${i + 1}@example.com`,
      });
    }

    for (const width of [1280, 390]) {
      await t.step(`at ${width} px`, async () => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${base}/admin/payments`);
        await page.getByRole("heading", { name: "Ledger" }).waitFor();
        const ledger = page.getByRole("table", { name: "Ledger" });
        const named = ledger.getByRole("link", { name: open.name, exact: true });
        assert.equal(
          await named.getAttribute("href"),
          `/admin/competitions/edit/${open.id}`,
          "the competition by name, linked",
        );
        assert.match(await ledger.innerText(), /Total USD/);
        assert.equal(await axeViolations(page).then((v) => v.join("\n")), "");
        await screenshot(page, `admin-payments-${width}`, { fullPage: width > 600 });

        await page.getByLabel("Search").fill("ledger.fan2@");
        await page.getByRole("button", { name: "Apply" }).click();
        await page.waitForURL(/q=ledger\.fan2/);
        const table = page.getByRole("table", { name: "Payments" });
        const text = await table.innerText();
        assert.match(text, /Ledger Fan 2/);
        assert.match(text, /ledger\.fan2@example\.com/);
        assert.doesNotMatch(text, /Ledger Fan 1/);
        assert.match(await page.locator("p[aria-live]").innerText(), /^1 payment$/);
      });
    }

    await t.step("a click on Amount sorts by it, numerically, and again reverses", async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}/admin/payments`);
      await page.getByRole("link", { name: "Amount" }).click();
      await page.waitForURL(/sort=amount&dir=asc/);
      const amounts = async () =>
        (await page.locator("[data-payment] td:nth-child(4)").allInnerTexts())
          .map((t) => Number(t.replace(/[^0-9.]/g, "")));
      const up = await amounts();
      assert.deepEqual(up, [...up].sort((a, b) => a - b));
      await page.getByRole("link", { name: /Amount/ }).click();
      await page.waitForURL(/sort=amount&dir=desc/);
      const down = await amounts();
      assert.deepEqual(down, [...down].sort((a, b) => b - a));
    });
    await t.step(
      "Refund: the dialog names the entry and amount, needs a reason, refunds once",
      async () => {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${base}/admin/payments?q=ledger.fan1%40`);
        const row = page.locator("[data-payment]").filter({ hasText: "Ledger Fan 1" });
        await row.getByRole("button", { name: /^Refund entry FFT-/ }).click();
        const dialog = page.getByRole("dialog", { name: "Refund entry" });
        await dialog.waitFor();
        const text = await dialog.innerText();
        assert.match(text, /Refund \$\d+\.\d\d to "Ledger Fan 1" \(FFT-[A-Z0-9]+\) in /);
        assert.match(text, new RegExp(open.name));
        const confirm = dialog.getByRole("button", { name: /^Refund \$/ });
        assert.equal(await confirm.isDisabled(), true, "no reason yet");
        await dialog.getByLabel(/^Reason/).fill("ab");
        assert.equal(await confirm.isDisabled(), true, "too short");
        assert.match(await dialog.innerText(), /at least 3 characters/);
        await dialog.getByLabel(/^Reason/).fill("Paid twice for the same team");
        assert.equal(await axeViolations(page).then((v) => v.join("\n")), "");
        await screenshot(page, "admin-refund-dialog-1280");
        await confirm.click();
        // The page reloads with the payment refunded.
        const after = page.locator("[data-payment]").filter({ hasText: "Ledger Fan 1" });
        await after.locator('[data-state="refunded"]').waitFor();
        assert.match(await after.innerText(), /Paid twice for the same team/);
        assert.equal(await after.getByRole("button", { name: /^Refund entry/ }).count(), 0);
      },
    );
  } finally {
    await browser.close();
    await server.stop();
  }
});
