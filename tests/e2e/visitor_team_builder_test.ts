import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { formatWhole } from "@/lib/domain/format.ts";
import type { Competition } from "@/lib/domain/types.ts";
import {
  assertNoSeriousAxeViolations,
  clickPlayers,
  closeToast,
  expectToast,
  readRows,
  type RowInfo,
  validTeam,
} from "./visitor_helpers.ts";

async function teamCount(page: Page): Promise<string> {
  return await page.locator("#your-team-title").innerText();
}

/** Removes every pick by clicking its slot. */
async function clearTeam(page: Page): Promise<void> {
  const slots = page.getByRole("button", { name: /^Remove / });
  while (await slots.count()) await slots.first().click();
  assert.equal(await teamCount(page), "Your Team (0/5)");
}

function openFor(c: Competition): boolean {
  return c.status === "UPCOMING" && new Date(c.deadline).getTime() > Date.now() + 3_600_000;
}

/** The most expensive picks that fit under the cap (≤ 4), then one more that would not. */
function overCapPicks(rows: RowInfo[], c: Competition): { picks: RowInfo[]; extra: RowInfo } {
  const picks: RowInfo[] = [];
  const fits = (r: RowInfo) =>
    picks.filter((p) => p.teamId === r.teamId).length < c.maxPlayersPerTeam &&
    (r.position !== "FWD" || picks.filter((p) => p.position === "FWD").length < c.maxForwards);
  const total = () => picks.reduce((sum, p) => sum + p.salary, 0);
  for (const r of [...rows].sort((a, b) => b.salary - a.salary)) {
    if (picks.length < 4 && fits(r) && total() + r.salary <= c.salaryCap) picks.push(r);
  }
  const extra = rows.find((r) => !picks.includes(r) && fits(r) && total() + r.salary > c.salaryCap);
  assert.ok(extra, "some player would break the cap");
  return { picks, extra };
}

Deno.test("[e2e] team builder: toasts, filters, slots and persistence", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const list: Competition[] = await (await fetch(`${server.url}/api/competitions`)).json();
    const open = list.filter(openFor);
    assert.ok(open.length >= 2, "the demo data has two open competitions");
    const c = open[0];
    await gotoHydrated(page, `${server.url}/team-selection/${c.id}`);
    const rows = await readRows(page);

    await t.step("the list is sorted by salary, descending", () => {
      const salaries = rows.map((r) => r.salary);
      assert.deepEqual(salaries, [...salaries].sort((a, b) => b - a));
    });

    await t.step("'Team Constraint' on a fourth player of one team", async () => {
      const byTeam = Object.groupBy(rows, (r) => String(r.teamId));
      const team = Object.values(byTeam).find((players) => players!.length > c.maxPlayersPerTeam)!;
      const cheap = [...team].sort((a, b) => a.salary - b.salary);
      const nonForwards = cheap.filter((r) => r.position !== "FWD");
      await clickPlayers(page, nonForwards.slice(0, c.maxPlayersPerTeam).map((r) => r.id));
      const fourth = cheap.find((r) => !nonForwards.slice(0, c.maxPlayersPerTeam).includes(r))!;
      await clickPlayers(page, [fourth.id]);
      assert.match(
        await expectToast(page, "Team Constraint"),
        new RegExp(
          `You can only select a maximum of ${c.maxPlayersPerTeam} players from the same team\\.`,
        ),
      );
      await closeToast(page);
      await clearTeam(page);
    });

    await t.step("'Position Constraint' past the forwards limit", async () => {
      // The cheapest forwards, no club past its limit: only the forwards rule can refuse the last.
      const forwards: RowInfo[] = [];
      for (const r of [...rows].reverse()) {
        const sameClub = forwards.filter((f) => f.teamId === r.teamId).length;
        if (r.position === "FWD" && sameClub < c.maxPlayersPerTeam) forwards.push(r);
      }
      assert.ok(
        forwards.length > c.maxForwards,
        "the contest has enough forwards to pass the limit",
      );
      await clickPlayers(page, forwards.slice(0, c.maxForwards + 1).map((r) => r.id));
      assert.match(
        await expectToast(page, "Position Constraint"),
        new RegExp(`You can only select a maximum of ${c.maxForwards} forwards\\.`),
      );
      await closeToast(page);
      await clearTeam(page);
    });

    await t.step("'Salary Cap Exceeded' when a pick would break the cap", async () => {
      const { picks, extra } = overCapPicks(rows, c);
      await clickPlayers(page, [...picks, extra].map((r) => r.id));
      const over = picks.reduce((sum, p) => sum + p.salary, 0) + extra.salary - c.salaryCap;
      assert.ok(
        (await expectToast(page, "Salary Cap Exceeded")).includes(
          `Your team salary cannot exceed $${formatWhole(c.salaryCap)}. This would put you $${
            formatWhole(over)
          } over the cap.`,
        ),
      );
      await closeToast(page);
      await clearTeam(page);
    });

    await t.step("'Team Complete' on a sixth player", async () => {
      const team = validTeam(rows);
      await clickPlayers(page, team);
      assert.equal(await teamCount(page), "Your Team (5/5)");
      const sixth = rows.find((r) => !team.includes(r.id))!;
      await clickPlayers(page, [sixth.id]);
      assert.match(
        await expectToast(page, "Team Complete"),
        /You've already selected 5 players\. Remove a player before adding another\./,
      );
      const toastBox = await page.locator("[data-toast]").boundingBox();
      const submitBox = await page.getByRole("button", { name: /^Submit Team/ }).boundingBox();
      assert.ok(
        toastBox && submitBox && toastBox.y + toastBox.height <= submitBox.y,
        "the toast sits above the bottom bar, clear of 'Submit Team'",
      );
      await closeToast(page);
    });

    await t.step("the picks belong to their competition", async () => {
      await gotoHydrated(page, `${server.url}/team-selection/${open[1].id}`);
      assert.equal(await teamCount(page), "Your Team (0/5)");
      await gotoHydrated(page, `${server.url}/team-selection/${c.id}`);
      assert.equal(await teamCount(page), "Your Team (5/5)");
      await clearTeam(page);
    });

    await t.step("continuing needs a goalkeeper and a defender", async () => {
      const team = validTeam(rows);
      const [gk, def1, def2] = team;
      const cheapest = [...rows].reverse();
      const spareMid = cheapest.find((r) =>
        r.position === "MID" && !team.includes(r.id) &&
        rows.filter((x) => team.includes(x.id) && x.id !== gk && x.teamId === r.teamId).length <
          c.maxPlayersPerTeam
      )!;
      await clickPlayers(page, [...team.filter((id) => id !== gk), spareMid.id]);
      await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
      assert.match(
        await expectToast(page, "Team Incomplete"),
        /You must select at least 1 goalkeeper\./,
      );
      await closeToast(page);
      await clickPlayers(page, [def1, def2, gk]);
      await page.getByRole("button", { name: "Submit Team (4/5)" }).waitFor();
      const kept = [gk, ...team.slice(3), spareMid.id];
      const spareMid2 = cheapest.find((r) =>
        r.position === "MID" && r.id !== spareMid.id && !team.includes(r.id) &&
        rows.filter((x) => kept.includes(x.id) && x.teamId === r.teamId).length <
          c.maxPlayersPerTeam
      )!;
      await clickPlayers(page, [spareMid2.id]);
      await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
      assert.match(
        await expectToast(page, "Team Incomplete"),
        /You must select at least 1 defender\./,
      );
      await closeToast(page);
      await clearTeam(page);
    });

    await t.step("filters: position, team, text and the empty state", async () => {
      const visible = () =>
        page.locator("li[data-player-id]:not([hidden])").evaluateAll((els) =>
          els.map((el) => (el as HTMLElement).dataset)
        );
      await page.getByRole("button", { name: "Goalkeepers" }).click();
      assert.ok((await visible()).every((d) => d.position === "GK"));
      await page.getByRole("button", { name: "All Players" }).click();
      const teamName = await page.getByLabel("Filter by team").locator("option").nth(1).innerText();
      await page.getByLabel("Filter by team").selectOption({ label: teamName });
      const teamRows = await visible();
      assert.ok(teamRows.length > 0 && new Set(teamRows.map((d) => d.teamId)).size === 1);
      await page.getByLabel("Filter by team").selectOption({ label: "All Teams" });
      await page.getByPlaceholder("Search players").fill("zzzz-nobody");
      await page.getByText("No players found").waitFor();
      await page.getByText("Try adjusting your search or filters").waitFor();
      await page.getByPlaceholder("Search players").fill("");
      assert.equal((await visible()).length, rows.length);
    });

    await t.step("the rules dialog opens and closes by keyboard", async () => {
      const opener = page.getByRole("button", { name: "How it works" });
      await opener.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Fantasy Rules" });
      await dialog.waitFor();
      assert.match(
        await dialog.innerText(),
        /Build your 5-player fantasy team and compete for prizes/,
      );
      assert.match(
        await dialog.locator("[data-salary-cap]").innerText(),
        new RegExp(`\\$${formatWhole(c.salaryCap)} salary cap`),
      );
      await assertNoSeriousAxeViolations(page);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "How it works");
      await page.keyboard.press("Enter");
      await dialog.getByRole("button", { name: "Got it" }).focus();
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("a closed competition shows a notice and cannot be submitted", async () => {
      const closed = list.find((x) => x.status !== "UPCOMING")!;
      await gotoHydrated(page, `${server.url}/team-selection/${closed.id}`);
      await page.getByText("This competition is closed for entries.").waitFor();
      assert.equal(await page.getByRole("button", { name: /^Submit Team/ }).count(), 0);
      assert.equal(await page.locator("li[data-player-id]").count(), 0, "no picking at all");
    });

    await t.step("an unknown competition shows 'Competition not found'", async () => {
      const res = await page.goto(`${server.url}/team-selection/999999`);
      assert.equal(res?.status(), 404);
      await page.getByRole("heading", { name: "Competition not found" }).waitFor();
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
