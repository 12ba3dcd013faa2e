import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { axeViolations, expectToast, login } from "./admin_helpers.ts";

interface Row {
  id: number;
  name: string;
  status: string;
  matchId: number | null;
  entries: number;
}

Deno.test("[admin] dashboard, matches, prizes, events and performances edge cases", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    // bypassCSP lets the test inject axe-core; the app's own scripts do not need it.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    await login(page, base);
    const rows: Row[] = await (await page.request.get(`${base}/api/admin/competitions`)).json();
    const upcoming = rows.find((r) => r.status === "UPCOMING" && r.entries === 0)!;
    const used = rows.find((r) => r.matchId !== null)!;

    await t.step("the dashboard copies the entry link for 3 seconds", async () => {
      await page.getByRole("table", { name: "Competitions" }).waitFor();
      assert.equal(await axeViolations(page).then((v) => v.join("\n")), "");
      await screenshot(page, "admin-dashboard", { fullPage: false });
      await page.getByRole("button", { name: `Copy entry link of ${upcoming.name}` }).click();
      const toast = await expectToast(
        page,
        "Entry Link Copied",
        "Direct link to make picks copied to clipboard",
      );
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.equal(copied, `${base}/team-selection/${upcoming.id}`);
      await toast.waitFor({ state: "detached", timeout: 4500 });
    });

    await t.step("deleting a competition asks first", async () => {
      const remove = page.getByRole("button", { name: `Delete ${upcoming.name}` });
      await remove.click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(
        "Are you sure you want to delete this competition? This action cannot be undone.",
      ).waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await remove.click();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await expectToast(page, "Competition Deleted");
      await remove.waitFor({ state: "detached" });
    });

    await t.step("game events: the not-LIVE notice and 'Competition Not Found'", async () => {
      const live = rows.find((r) => r.status !== "LIVE" && r.id !== upcoming.id)!;
      await gotoHydrated(page, `${base}/admin/competitions/${live.id}/events`);
      await page.getByText(
        "Competition is not LIVE. Events should only be created for live competitions.",
      ).waitFor();
      assert.ok(await page.getByRole("button", { name: "Create Event" }).isDisabled());
      await gotoHydrated(page, `${base}/admin/competitions/99999/events`);
      await page.getByText("Competition Not Found").waitFor();
      await page.getByRole("link", { name: "Back to Competitions" }).waitFor();
    });

    await t.step("a match used by a competition cannot be deleted", async () => {
      await gotoHydrated(page, `${base}/admin/matches`);
      await page.getByRole("table", { name: "Matches" }).waitFor();
      assert.equal(await axeViolations(page).then((v) => v.join("\n")), "");
      await page.locator(`tr[data-match-id="${used.matchId}"]`).getByRole("button", {
        name: /^Delete /,
      }).click();
      await page.getByRole("dialog").getByText(
        "Are you sure you want to delete this match? This action cannot be undone.",
      ).waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await expectToast(
        page,
        "Cannot Delete",
        "This match is being used by one or more competitions. You must delete those competitions first.",
      );
    });

    await t.step("match scores give the result; team players can be added and edited", async () => {
      await gotoHydrated(page, `${base}/admin/matches/${used.matchId}`);
      const result = page.locator("[data-result]");
      await page.getByLabel("Home Score").fill("2");
      await page.getByLabel("Away Score").fill("1");
      assert.equal(await result.innerText(), "Home Win");
      await page.getByLabel("Away Score").fill("2");
      assert.equal(await result.innerText(), "Draw");
      await page.getByLabel("Away Score").fill("");
      assert.equal(await result.innerText(), "Not Played");
      await page.getByLabel("Away Score").fill("3");
      assert.equal(await result.innerText(), "Away Win");

      await page.getByRole("button", { name: "Manage Home Team Players" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("tab", { name: "Current Players" }).waitFor();
      await dialog.getByRole("table", { name: "Team players" }).waitFor();
      await dialog.getByRole("tab", { name: "Add Player" }).click();
      await dialog.getByRole("button", { name: "Add Player" }).click();
      await expectToast(page, "Error", "Player name and position are required");
      await dialog.getByLabel("Player Name").fill("Testy McTestface");
      await dialog.getByLabel("Position").selectOption("MID");
      await dialog.getByRole("button", { name: "Add Player" }).click();
      await expectToast(page, "Player Created");
      await dialog.getByRole("cell", { name: "Testy McTestface", exact: true }).waitFor();
      await dialog.getByRole("button", { name: "Edit Testy McTestface" }).click();
      await dialog.getByRole("tab", { name: "Edit Player" }).waitFor();
      await dialog.getByLabel("Salary").fill("4200");
      await dialog.getByRole("button", { name: "Update Player" }).click();
      await expectToast(page, "Player Updated");
      await dialog.getByRole("cell", { name: "$4,200.00" }).waitFor();
      await screenshot(page, "admin-team-players-dialog", { fullPage: false });
      // The saved form left the dialog; Escape still closes it.
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Update Match" }).click();
      await page.waitForURL("**/admin/matches");
      await expectToast(page, "Match Updated");
      await page.locator(`tr[data-match-id="${used.matchId}"]`).getByText("Away Win 2–3").waitFor();
    });

    await t.step("prizes: the last row cannot go to zero, one row cannot be removed", async () => {
      await gotoHydrated(page, `${base}/admin/competitions/${used.id}/prizes`);
      assert.equal(await axeViolations(page).then((v) => v.join("\n")), "");
      const removes = page.getByRole("button", { name: /^Remove position/ });
      await removes.first().waitFor();
      while (await removes.count() > 1) await removes.last().click();
      assert.ok(await removes.first().isDisabled(), "the only row cannot be removed");
      const pool = await page.locator("text=Prize pool:").locator("strong").innerText();
      const amount = String(Number(pool.replace(/[$,]/g, "")));
      await page.getByLabel("Prize Amount ($)").first().fill(amount);
      await page.getByRole("button", { name: "Add Position" }).click();
      // The new position took half of the first, so nothing is $0; give the first all of it.
      await page.getByLabel("Prize Amount ($)").first().fill(amount);
      await page.getByLabel("Prize Amount ($)").nth(1).fill("5");
      await page.getByText("Prize total doesn't match competition prize pool").waitFor();
      await page.getByRole("button", { name: "Fix Total" }).click();
      await expectToast(
        page,
        "Cannot Adjust Prizes",
        "Please adjust prize values manually or add more prize positions",
      );
    });

    await t.step("performances: empty state for a competition without players", async () => {
      const res = await page.request.post(`${base}/api/admin/competitions`, {
        data: {
          name: "Empty Cup",
          league: "PREMIER_LEAGUE",
          entryFee: "5",
          prizePool: "50",
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
        },
      });
      assert.equal(res.status(), 201);
      const { id } = await res.json();
      await gotoHydrated(page, `${base}/admin/player-performances?competitionId=${id}`);
      await page.getByText("No players found for this competition.").waitFor();
      await page.getByText("Make sure you've added players to the competition.").waitFor();
      await page.getByLabel("Competition").selectOption(String(used.id));
      await page.getByRole("heading", { name: /Goalkeepers/ }).waitFor();
      assert.match(page.url(), new RegExp(`competitionId=${used.id}$`));
      const row = page.locator("tr[data-player-id]").first();
      await row.getByRole("button", { name: "More" }).click();
      await page.getByLabel(/^Bonus of /).first().fill("1");
      await page.getByLabel(/^Bonus of /).first().blur();
      assert.equal(await page.getByLabel(/^Bonus of /).first().inputValue(), "3");
      assert.equal(await axeViolations(page).then((v) => v.join("\n")), "");
    });

    await t.step("a 401 from the list sends the admin to login", async () => {
      await gotoHydrated(page, `${base}/admin/dashboard`);
      await page.getByRole("table", { name: "Competitions" }).waitFor();
      await context.clearCookies();
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.waitForURL("**/admin/login**");
      await expectToast(page, "Authentication Required");
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
