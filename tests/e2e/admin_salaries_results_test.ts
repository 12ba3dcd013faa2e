/**
 * Admin results and money, in a browser on the demo data: a salary edit stays in its competition,
 * a competition nobody can enter is hidden with its reason, a future match refuses a result, and
 * a competition is cancelled with everyone refunded, at 1280 and 390 px.
 */
import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { competitionPlayers, expectToast, login, openAdmin, payForEntry } from "./admin_helpers.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  type RowInfo,
  validTeam,
} from "./visitor_helpers.ts";

interface Contest {
  id: number;
  name: string;
  status: string;
}

Deno.test("[e2e] admin salaries, hidden contests, match results, cancellation", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const all: Contest[] = await (await fetch(`${base}/api/competitions`)).json();
    const sprint = all.find((c) => c.name.includes("Matchday Sprint"))!;
    const hamper = all.find((c) => c.name.includes("Hamper Draw"))!;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await login(page, base);

    await t.step("a salary edited in one competition stays there", async () => {
      const before = await competitionPlayers(base, sprint.id);
      const star = before[0];
      const elsewhere = (await competitionPlayers(base, hamper.id)).find((p) => p.id === star.id)!;
      await openAdmin(page, base, `/admin/competitions/${sprint.id}/players`);
      const salary = page.getByLabel(`Salary of ${star.name}`);
      await salary.fill("12500");
      await salary.press("Tab");
      await expectToast(page, "Salary Updated");
      const after = await competitionPlayers(base, sprint.id);
      assert.equal(after.find((p) => p.id === star.id)!.salary, 12500);
      const other = (await competitionPlayers(base, hamper.id)).find((p) => p.id === star.id)!;
      assert.equal(other.salary, elsewhere.salary, "the other competition keeps its price");
    });

    await t.step("a new competition without players is hidden, and says why", async () => {
      const res = await fetch(`${base}/api/admin/competitions`, {
        method: "POST",
        headers: ADMIN_HEADERS,
        body: JSON.stringify({
          name: "Nobody Can Enter Cup",
          league: "PREMIER_LEAGUE",
          entryFee: 10,
          prizePool: 100,
          salaryCap: 5000,
          deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
        }),
      });
      assert.equal(res.status, 201);
      const created = await res.json();
      await openAdmin(page, base, "/admin/dashboard");
      const row = page.locator(`tr[data-competition-id="${created.id}"]`);
      assert.match(
        await row.locator("[data-hidden-reason]").innerText(),
        /Hidden from visitors: No players have been added yet\./,
      );
      await gotoHydrated(page, `${base}/`);
      assert.equal(await page.locator(`[data-contest-card="${created.id}"]`).count(), 0);
      await gotoHydrated(page, `${base}/team-selection/${created.id}`);
      assert.match(await page.locator("[data-missing]").innerText(), /No players have been added/);
      assert.equal(await page.getByText("Try adjusting your search or filters").count(), 0);
    });

    await t.step("a result for a match that has not kicked off is refused", async () => {
      const matches: { id: number; kickoffTime: string }[] = await (
        await fetch(`${base}/api/admin/matches`, { headers: ADMIN_HEADERS })
      ).json();
      const future = matches.find((m) => new Date(m.kickoffTime).getTime() > Date.now())!;
      await openAdmin(page, base, `/admin/matches/${future.id}`);
      await page.getByLabel("Home Score").fill("2");
      await page.getByLabel("Away Score").fill("2");
      await page.getByRole("button", { name: "Update Match" }).click();
      await expectToast(page, "Error", "A result can only be saved once the match has kicked off.");
    });

    await t.step("cancel from the dashboard: refunded, and visitors see it", async () => {
      const rows: RowInfo[] = await competitionPlayers(base, sprint.id) as RowInfo[];
      await payForEntry(base, {
        competitionId: sprint.id,
        playerIds: validTeam(rows),
        teamName: "Refund Me",
        email: "refund@example.com",
      });
      await openAdmin(page, base, "/admin/dashboard");
      await page.getByRole("button", { name: `Cancel ${sprint.name} and refund everyone` })
        .first().click();
      const dialog = page.getByRole("dialog", { name: "Cancel competition" });
      await dialog.waitFor();
      await screenshot(page, "admin-cancel-dialog-1280", { fullPage: false });
      await dialog.getByLabel("Reason (required; sent to every entrant)").fill(
        "The match was postponed.",
      );
      await dialog.getByRole("button", { name: "Cancel and refund everyone" }).click();
      await expectToast(page, "Competition Cancelled", "1 of 1 entries refunded");
      const row = page.locator(`tr[data-competition-id="${sprint.id}"]`);
      assert.match(await row.innerText(), /CANCELLED/);
      await screenshot(page, "admin-dashboard-1280");
      await page.setViewportSize({ width: 390, height: 844 });
      await openAdmin(page, base, "/admin/dashboard");
      await assertNoHorizontalScroll(page);
      await screenshot(page, "admin-dashboard-390");
      const del = await fetch(`${base}/api/admin/competitions/${sprint.id}`, {
        method: "DELETE",
        headers: ADMIN_HEADERS,
      });
      assert.equal(del.status, 409);
      assert.match((await del.json()).message, /Cancel it instead/);
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
