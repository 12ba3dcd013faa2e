import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { lastName } from "@/lib/domain/format.ts";
import {
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  clickPlayers,
  closeToast,
  expectToast,
  readRows,
  validTeam,
} from "./visitor_helpers.ts";

const SHOTS = new URL("./screenshots/", import.meta.url);

async function shot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });
}

const ADMIN_HEADERS = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

interface BoardRow {
  teamId: string;
  captainName?: string;
  viceCaptainName?: string;
  actingCaptainName?: string;
}

async function boardRows(base: string, cid: number): Promise<BoardRow[]> {
  const res = await fetch(`${base}/api/competitions/${cid}/leaderboard`);
  assert.equal(res.status, 200);
  return await res.json();
}

/**
 * Each row of the page shows the C and V of its API row: their last names visible, the full
 * names read out ("Captain: …, vice-captain: …", then the acting captain once his match kicked
 * off).
 */
async function assertMarks(page: Page, rows: BoardRow[]): Promise<void> {
  const table = page.getByRole("table", { name: "Leaderboard" });
  for (const row of rows) {
    assert.ok(row.captainName && row.viceCaptainName, `${row.teamId} has captains`);
    const mark = table.locator(`tr[data-team-id="${row.teamId}"] [data-captains]`);
    const acting = row.actingCaptainName ? `, acting captain: ${row.actingCaptainName}` : "";
    assert.equal(
      await mark.locator(".sr-only").textContent(),
      `Captain: ${row.captainName}, vice-captain: ${row.viceCaptainName}${acting}`,
    );
    const visible = (await mark.innerText()).replace(/\s+/g, " ").trim();
    assert.ok(
      visible.endsWith(`C ${lastName(row.captainName)} V ${lastName(row.viceCaptainName)}`),
      visible,
    );
  }
}

/** The C or V button of the pick named `name` in the team panel. */
function roleButton(page: Page, role: "Captain" | "Vice-captain", name: string) {
  return page.getByRole("button", { name: `${role}: ${name}`, exact: true });
}

Deno.test("[e2e] captain: the builder marks a captain and a vice-captain by keyboard, the entry keeps them", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const list: Competition[] = await (await fetch(`${base}/api/competitions`)).json();
    const c = list.find((x) => x.name.includes("Weekend Showdown"))!;
    assert.equal(c.captainMultiplier, 2, "the demo contest has captains on");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await gotoHydrated(page, `${base}/team-selection/${c.id}`);
    const rows = await readRows(page);
    const team = validTeam(rows);
    await clickPlayers(page, team);
    const panel = page.locator("section[aria-labelledby='your-team-title']");
    const names = await panel.locator("li").evaluateAll((items) =>
      items.map((li) =>
        li.querySelector("button[data-role='captain']")?.getAttribute("aria-label")?.replace(
          /^Captain: /,
          "",
        ) ?? ""
      )
    );
    assert.equal(names.filter(Boolean).length, 5, "each pick has its C and V buttons");
    const [first, second] = names;

    await t.step("the team cannot go on without its captains", async () => {
      assert.match(await panel.locator("[data-captain-hint]").innerText(), /captain \(C\)/i);
      await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
      const toast = await expectToast(page, "Choose your captains");
      assert.match(toast, /Choose a captain among your 5 players/);
      await closeToast(page);
      assert.match(page.url(), /team-selection/);
    });

    await t.step("keyboard: real toggle buttons, pressed state and visible C / V", async () => {
      const captain = roleButton(page, "Captain", first);
      assert.equal(await captain.getAttribute("aria-pressed"), "false");
      await captain.focus();
      await page.keyboard.press("Space");
      assert.equal(await captain.getAttribute("aria-pressed"), "true");
      assert.equal((await captain.innerText()).trim(), "C");
      // Tab moves on to the same pick's V button; Enter presses it: one player cannot be both,
      // so the armband is given again from the second pick.
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
      assert.equal(focused, `Vice-captain: ${first}`);
      await roleButton(page, "Captain", second).focus();
      await page.keyboard.press("Enter");
      assert.equal(await roleButton(page, "Captain", second).getAttribute("aria-pressed"), "true");
      assert.equal(await captain.getAttribute("aria-pressed"), "false", "one captain at a time");
      await roleButton(page, "Vice-captain", first).focus();
      await page.keyboard.press("Enter");
      assert.equal(
        await roleButton(page, "Vice-captain", first).getAttribute("aria-pressed"),
        "true",
      );
      assert.match(await panel.locator("[data-captain-hint]").innerText(), /count ×2/);
      assert.equal(await panel.locator("button[aria-pressed='true']").count(), 2);
      await assertNoSeriousAxeViolations(page);
      await shot(page, "captain-builder-1280");
    });

    await t.step("390 px: the C and V buttons fit beside each pick", async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalScroll(page);
      const box = await roleButton(page, "Vice-captain", first).boundingBox();
      assert.ok(box && box.width >= 32 && box.height >= 24, "at least the 24 px target size");
      await shot(page, "captain-builder-390");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.step("a reload keeps the captains with the picks", async () => {
      await gotoHydrated(page, `${base}/team-selection/${c.id}`);
      await roleButton(page, "Captain", second).waitFor();
      assert.equal(await roleButton(page, "Captain", second).getAttribute("aria-pressed"), "true");
      assert.equal(
        await roleButton(page, "Vice-captain", first).getAttribute("aria-pressed"),
        "true",
      );
    });

    await t.step("paid: the entry keeps them and the team dialog shows C and V", async () => {
      await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
      await page.waitForURL(`**/payment/${c.id}`);
      // The checkout's picks carry the C and V chosen in the builder.
      const picks = page.locator("[data-picks] li");
      await picks.first().waitFor();
      const marked = async (root: typeof picks, role: "C" | "V") =>
        (await root.filter({ has: page.locator(`[data-role-badge='${role}']`) }).allInnerTexts())
          .join(" ");
      assert.match(await marked(picks, "C"), new RegExp(lastName(second)));
      assert.match(await marked(picks, "V"), new RegExp(lastName(first)));
      await page.getByLabel("Display Name").fill("Armband Heroes");
      await page.getByLabel("Email Address").fill("armband@example.com");
      await page.getByLabel("Confirm Email").fill("armband@example.com");
      await page.getByRole("button", { name: /^Proceed to Payment/ }).click();
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByRole("button", { name: /^Pay and Submit Entry/ }).click();
      await page.waitForURL("**/confirmation/**");
      const teamId = decodeURIComponent(page.url().split("/confirmation/")[1]);
      // And so does the confirmation page.
      const confirmed = page.locator("[data-confirmation-players] li");
      assert.match(await marked(confirmed, "C"), new RegExp(second));
      assert.match(await marked(confirmed, "V"), new RegExp(first));
      // Before the lock nobody else sees the picks; the owner's edit link holds the captains.
      const details = await (await fetch(`${base}/api/entries/${teamId}/details`)).json();
      assert.equal(details.players.length, 0);
      assert.equal(details.hiddenPicks, 5);
      const token = await page.evaluate(
        (id) =>
          JSON.parse(localStorage.getItem("userEntries") ?? "[]")
            .find((e: { teamId: string }) => e.teamId === id)?.editToken,
        teamId,
      );
      const own = await (await fetch(`${base}/api/team-edits/${token}`)).json();
      const players = await (await fetch(`${base}/api/competitions/${own.competitionId}/players`))
        .json();
      const idOf = (name: string) => players.find((p: { name: string }) => p.name === name)?.id;
      assert.equal(own.captainId, idOf(second));
      assert.equal(own.viceCaptainId, idOf(first));

      // Teams are shown once the contest started: the live demo contest's seeded entries.
      const live = list.find((x) => x.status === "LIVE")!;
      assert.equal(live.captainMultiplier, 2);
      await gotoHydrated(page, `${base}/leaderboard/${live.id}`);
      assert.match(await page.getByTestId("captains").innerText(), /Captains \(C\) score ×2/);
      const row = page.locator("tr[data-team-id]").first();
      const rowName = (await row.locator("td").nth(1).innerText()).split("\n")[0].trim();
      await row.getByRole("button").click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      await dialog.locator("[data-role-badge='C']").waitFor();
      assert.equal(await dialog.locator("[data-role-badge='C']").count(), 1, rowName);
      assert.equal(await dialog.locator("[data-role-badge='V']").count(), 1);
      const captainCard = dialog.getByTestId("team-player").filter({
        has: page.locator("[data-role-badge='C']"),
      });
      assert.match(await captainCard.innerText(), /\(captain\)/);
      await page.screenshot({
        path: new URL("captain-team-dialog-1280.png", SHOTS).pathname,
        fullPage: false,
      });
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    });

    await t.step(
      "the leaderboard marks each row's C and V; a row that moves keeps its marks",
      async () => {
        const live = list.find((x) => x.status === "LIVE")!;
        const table = page.getByRole("table", { name: "Leaderboard" });
        const before = await boardRows(base, live.id);
        // One of them is this browser's entry: its highlighted row keeps a legible mark.
        await page.evaluate((entry) => {
          localStorage.setItem("userEntries", JSON.stringify([entry]));
        }, { competitionId: live.id, teamId: before[1].teamId });
        await gotoHydrated(page, `${base}/leaderboard/${live.id}`);
        await table.locator(`tr[data-own][data-team-id="${before[1].teamId}"]`).waitFor();
        await assertMarks(page, before);
        // The marks name the captains the team dialog shows.
        const roles = async (teamId: string) =>
          (await (await fetch(`${base}/api/entries/${teamId}/details`)).json()).players as {
            id: number;
            name: string;
            captain: "C" | "V" | null;
          }[];
        const firstTeam = await roles(before[0].teamId);
        assert.equal(firstTeam.find((p) => p.captain === "C")?.name, before[0].captainName);
        assert.equal(firstTeam.find((p) => p.captain === "V")?.name, before[0].viceCaptainName);

        // A goal for the last row's captain counts ×2 there: that row climbs, live over /ws.
        const last = before[before.length - 1];
        const captain = (await roles(last.teamId)).find((p) => p.captain === "C")!;
        const goal = await fetch(`${base}/api/admin/competitions/${live.id}/events`, {
          method: "POST",
          headers: { ...ADMIN_HEADERS, "content-type": "application/json" },
          body: JSON.stringify({ playerId: captain.id, eventType: "GOAL", minute: 80 }),
        });
        assert.equal(goal.status, 201, await goal.text());
        const after = await boardRows(base, live.id);
        const at = (rows: BoardRow[]) => rows.findIndex((r) => r.teamId === last.teamId);
        assert.ok(at(after) < at(before), "the captain's goal moves the row up");
        await page.waitForFunction(
          (order) =>
            [...document.querySelectorAll("table[aria-label='Leaderboard'] tr[data-team-id]")]
              .map((tr) => tr.getAttribute("data-team-id")).join() === order,
          after.map((r) => r.teamId).join(),
          { timeout: 10_000 },
        );
        await assertMarks(page, after);
        assert.equal(await table.locator("[data-captains]").count(), after.length);
        await page.waitForSelector("tr[data-changed]", { state: "detached", timeout: 10_000 });
        await page.mouse.move(0, 0); // no row left hovered for the contrast check
        await assertNoSeriousAxeViolations(page);
        await shot(page, "captain-leaderboard-1280");

        await page.setViewportSize({ width: 390, height: 844 });
        await assertNoHorizontalScroll(page);
        const mark = table.locator(`tr[data-team-id="${last.teamId}"] [data-captains]`);
        const markBox = await mark.boundingBox();
        const cellBox = await table.locator(`tr[data-team-id="${last.teamId}"] td`).nth(1)
          .boundingBox();
        assert.ok(
          markBox && cellBox && markBox.x + markBox.width <= cellBox.x + cellBox.width + 0.5,
          "the mark stays inside its cell",
        );
        // Both marks on a phone too (the V wraps below the C when the cell is narrow).
        const moved = table.locator(`tr[data-team-id="${last.teamId}"]`);
        const armband = (role: string) => moved.locator(`[data-armband='${role}']`);
        assert.equal(
          (await armband("C").innerText()).replace(/\s+/g, " ").trim(),
          `C ${lastName(last.captainName)}`,
        );
        assert.equal(await armband("V").isVisible(), true);
        assert.equal(
          (await armband("V").innerText()).replace(/\s+/g, " ").trim(),
          `V ${lastName(last.viceCaptainName!)}`,
        );
        assert.match((await mark.locator(".sr-only").textContent())!, /, vice-captain: /);
        await assertNoSeriousAxeViolations(page);
        await shot(page, "captain-leaderboard-390");
      },
    );
  } finally {
    await browser.close();
    await server.stop();
  }
});
