import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { competitionPlayers, expectToast, login, payForEntry } from "./admin_helpers.ts";

const NAME = "Admin Day Cup";

type PublicPlayer = Awaited<ReturnType<typeof competitionPlayers>>[number];

/** 1 GK, 2 DEF, 2 MID with at most 3 from one team, skipping `taken`. */
function pickTeam(players: PublicPlayer[], taken: Set<number>): PublicPlayer[] {
  const need: Record<string, number> = { GK: 1, DEF: 2, MID: 2 };
  const perTeam = new Map<number, number>();
  const picks: PublicPlayer[] = [];
  for (const p of players) {
    if (taken.has(p.id) || !need[p.position] || (perTeam.get(p.teamId) ?? 0) >= 3) continue;
    need[p.position]--;
    perTeam.set(p.teamId, (perTeam.get(p.teamId) ?? 0) + 1);
    picks.push(p);
  }
  assert.equal(picks.length, 5, "found a valid team");
  return picks;
}

/**
 * Sets the status on the edit form. This competition has no match, so going LIVE before its
 * deadline or COMPLETED without a result asks for a reason (`confirm`: the dialog's text).
 */
async function setStatus(
  page: Page,
  baseUrl: string,
  id: number,
  status: string,
  confirm: RegExp,
) {
  await gotoHydrated(page, `${baseUrl}/admin/competitions/edit/${id}`);
  await page.getByLabel("Status").selectOption(status);
  await page.getByRole("button", { name: "Update Competition" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText(confirm).waitFor();
  await dialog.getByLabel(/Reason/).fill(`Set ${status} for the admin day`);
  await dialog.getByRole("button", { name: `Set ${status}` }).click();
  await page.waitForURL("**/admin/dashboard");
  await expectToast(page, "Competition Updated");
}

Deno.test("[admin] a whole admin day, from login to the awarded prizes", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  let id = 0;
  const entrants: { teamId: string; name: string; players: PublicPlayer[] }[] = [];
  try {
    // The admin works in New York: the deadline typed as local time is stored in UTC.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      timezoneId: "America/New_York",
    });
    const page = await context.newPage();

    await t.step("log in", () => login(page, base));

    await t.step("create a competition with the form's defaults", async () => {
      await page.getByRole("link", { name: "New Competition" }).first().click();
      await page.waitForURL("**/admin/competitions/new");
      assert.equal(await page.getByLabel("Entry Fee").inputValue(), "10");
      assert.equal(await page.getByLabel("Prize Pool").inputValue(), "100");
      // No match yet: the rules' default cap (a match suggests one from its players).
      assert.equal(await page.getByLabel("Salary Cap").inputValue(), "50000");
      assert.equal(await page.getByLabel("Prize Description").count(), 0, "cash: no description");
      await page.getByLabel("Prize Type").selectOption("NON_CASH");
      await page.getByLabel("Prize Description").waitFor();
      await page.getByLabel("Prize Type").selectOption("CASH");
      await page.getByRole("button", { name: "Create Competition" }).click();
      await page.getByText("Name is required").waitFor();
      await page.getByLabel("Name").fill(NAME);
      await page.getByLabel("Salary Cap").fill("100000");
      await page.getByLabel("Deadline date").fill("2031-06-15");
      await page.getByLabel("Deadline time").fill("18:30");
      await page.getByRole("button", { name: "Create Competition" }).click();
      await page.waitForURL("**/admin/dashboard");
      await expectToast(page, "Competition Created");
      const row = page.locator("tr", { hasText: NAME });
      id = Number(await row.getAttribute("data-competition-id"));
      assert.ok(id > 0);
      assert.match(await row.innerText(), /\$10\.00[\s\S]*\$100\.00[\s\S]*15 Jun 2031, 18:30/);
      const saved = await (await page.request.get(`${base}/api/admin/competitions/${id}`)).json();
      assert.equal(saved.deadline, "2031-06-15T22:30:00.000Z");
    });

    await t.step("add players by position and edit a salary inline", async () => {
      await page.getByRole("link", { name: `Manage players of ${NAME}` }).click();
      await page.waitForURL(`**/admin/competitions/${id}/players`);
      await page.getByRole("tab", { name: /Available Players/ }).click();
      await page.getByRole("button", { name: "Add Selected" }).click();
      await expectToast(page, "No Players Selected");
      for (const position of ["GK", "DEF", "MID"]) {
        await page.getByPlaceholder("Search by name, position or team").fill(position);
        await page.getByLabel("Select all players on this page").check();
        await page.getByRole("button", { name: /Add Selected/ }).click();
        await expectToast(page, "Players Added", "Added ");
      }
      await page.getByRole("tab", { name: /Current Players/ }).click();
      assert.match(await page.getByText(/Page \d+ of \d+/).first().innerText(), /Page 1 of [2-9]/);
      const salary = page.getByLabel(/^Salary of /).first();
      await salary.fill("12500");
      await salary.press("Tab");
      await expectToast(page, "Salary Updated");
      await screenshot(page, "admin-day-players", { fullPage: false });
    });

    await t.step("auto-distribute the prizes, fix a wrong total and save", async () => {
      await gotoHydrated(page, `${base}/admin/competitions/${id}/prizes`);
      const amounts = page.getByLabel("Prize Amount ($)");
      const shown = () =>
        amounts.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
      // A new structure opens valid: three places sharing the whole pool.
      assert.deepEqual(await shown(), ["50", "30", "20"]);
      assert.equal(
        await page.getByText("Prize total doesn't match competition prize pool").count(),
        0,
      );
      await page.getByRole("button", { name: "Add Position" }).click();
      assert.equal(await amounts.count(), 4);
      await page.getByRole("button", { name: /^Remove position/ }).last().click();
      await page.getByRole("button", { name: "Auto-Distribute" }).click();
      assert.deepEqual(await shown(), ["50", "30", "20"]);
      await amounts.nth(2).fill("25");
      await page.getByText("Prize total doesn't match competition prize pool").waitFor();
      await page.getByRole("button", { name: "Fix Total" }).click();
      await expectToast(page, "Prize Structure Adjusted");
      assert.equal(await amounts.nth(2).inputValue(), "20");
      await page.getByRole("button", { name: "Save Prize Structure" }).click();
      await expectToast(page, "Prize Structure Updated");
    });

    await t.step("create two clubs on the Clubs screen, then a match between them", async () => {
      await gotoHydrated(page, `${base}/admin/clubs`);
      for (const [name, shortName] of [["Arsenal", "ARS"], ["Chelsea", "CHE"]]) {
        await page.getByRole("button", { name: "New Club" }).click();
        const dialog = page.getByRole("dialog", { name: "New Club" });
        await dialog.getByLabel("Club Name").fill(name);
        await dialog.getByLabel("Short Name").fill(shortName);
        await dialog.getByRole("button", { name: "Create Club" }).click();
        await expectToast(page, "Club Created");
        await dialog.waitFor({ state: "detached" });
      }
      await gotoHydrated(page, `${base}/admin/matches/new`);
      assert.equal(
        await page.getByRole("button", { name: "Create Sample Teams" }).count(),
        0,
        "a populated site is not offered sample teams",
      );
      await page.getByLabel("Home Team").selectOption({ label: "Arsenal" });
      await page.getByLabel("Away Team").selectOption({ label: "Arsenal" });
      await page.getByRole("button", { name: "Create Match" }).click();
      await page.getByText("Home team and away team cannot be the same").waitFor();
      await page.getByText("Stadium is required").waitFor();
      await page.getByLabel("Away Team").selectOption({ label: "Chelsea" });
      await page.getByLabel("Stadium").fill("Emirates Stadium");
      await page.getByRole("button", { name: "Create Match" }).click();
      await page.waitForURL("**/admin/matches");
      await expectToast(page, "Match Created");
      await page.locator("tr", { hasText: "Arsenal" }).filter({ hasText: "Chelsea" }).waitFor();
    });

    await t.step("two entrants pay for their teams (public API, test payments)", async () => {
      const players = await competitionPlayers(base, id);
      const taken = new Set<number>();
      for (const name of ["Day One FC", "Day Two FC"]) {
        const picks = pickTeam(players, taken);
        picks.forEach((p) => taken.add(p.id));
        const teamId = await payForEntry(base, {
          competitionId: id,
          playerIds: picks.map((p) => p.id),
          teamName: name,
          email: `${name.replaceAll(" ", ".").toLowerCase()}@example.com`,
        });
        entrants.push({ teamId, name, players: picks });
      }
    });

    await t.step(
      "set the competition LIVE",
      () =>
        setStatus(
          page,
          base,
          id,
          "LIVE",
          /^The deadline is in .*: going LIVE now closes entries early\./,
        ),
    );

    const scorer = () => entrants[0].players.find((p) => p.position === "MID")!;
    await t.step("add a game event and delete a wrong one", async () => {
      await page.getByRole("link", { name: `Game events of ${NAME}` }).click();
      await page.waitForURL(`**/admin/competitions/${id}/events`);
      await page.getByRole("heading", { name: NAME }).getByText("LIVE").waitFor();
      const form = async (playerId: number, type: string, minute: string) => {
        await page.getByLabel("Player").selectOption(String(playerId));
        await page.getByLabel("Event Type").selectOption(type);
        await page.getByLabel("Minute").fill(minute);
        await page.getByRole("button", { name: "Create Event" }).click();
        await expectToast(page, "Event created");
      };
      await form(scorer().id, "GOAL", "23");
      await form(entrants[1].players[0].id, "YELLOW_CARD", "40");
      const events = page.getByRole("list", { name: "Recent events" });
      await events.getByText("Yellow Card").waitFor();
      assert.match(await events.innerText(), new RegExp(`${scorer().name}[\\s\\S]*Goal`));
      await page.getByRole("button", { name: /^Delete Yellow Card of / }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await expectToast(page, "Event Deleted");
      await events.getByText("Yellow Card").waitFor({ state: "detached" });
      await screenshot(page, "admin-day-events", { fullPage: false });
    });

    await t.step("record performances with live points", async () => {
      await gotoHydrated(page, `${base}/admin/dashboard`);
      await page.getByRole("link", { name: `Set match result of ${NAME}` }).click();
      await page.waitForURL(`**/admin/player-performances?competitionId=${id}`);
      const row = page.locator(`tr[data-player-id="${scorer().id}"]`);
      await row.waitFor();
      assert.equal(await row.getByLabel(/^Goals of /).inputValue(), "1", "the GOAL event counted");
      assert.equal(await row.locator("[data-points]").innerText(), "5");
      await row.getByLabel(/^Minutes of /).fill("95");
      await page.getByRole("button", { name: "Save All" }).click();
      await expectToast(page, "Error", "Minutes must be between 0 and 90");
      await row.getByLabel(/^Minutes of /).fill("90");
      assert.equal(
        await row.locator("[data-points]").innerText(),
        "7",
        "2 for 60+ min, 5 per goal",
      );
      await page.getByRole("button", { name: "Save All" }).click();
      await expectToast(page, "Success", "Player performances updated successfully");
    });

    await t.step(
      "set it COMPLETED",
      () => setStatus(page, base, id, "COMPLETED", /no match, so no result shows it is over/),
    );

    await t.step("the public leaderboard shows the awarded prizes", async () => {
      const res = await fetch(`${base}/api/competitions/${id}/leaderboard`);
      const standings: { teamName: string; rank: number; prize: number | null }[] = await res
        .json();
      assert.deepEqual(
        standings.map((r) => [r.teamName, r.rank, r.prize]),
        [[entrants[0].name, 1, 50], [entrants[1].name, 2, 30]],
      );
      await gotoHydrated(page, `${base}/leaderboard/${id}`);
      const winner = page.locator("tr", { hasText: entrants[0].name });
      await winner.waitFor();
      assert.match(await winner.innerText(), /\$50\.00/);
      const second = page.locator("tr", { hasText: entrants[1].name });
      assert.match(await second.innerText(), /\$30\.00/);
      await screenshot(page, "admin-day-leaderboard");
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
