import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import type { Competition } from "@/lib/domain/types.ts";
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
      await page.getByLabel("Display Name").fill("Armband Heroes");
      await page.getByLabel("Email Address").fill("armband@example.com");
      await page.getByLabel("Confirm Email").fill("armband@example.com");
      await page.getByRole("button", { name: /^Proceed to Payment/ }).click();
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByRole("button", { name: /^Pay and Submit Entry/ }).click();
      await page.waitForURL("**/confirmation/**");
      const teamId = decodeURIComponent(page.url().split("/confirmation/")[1]);
      const details = await (await fetch(`${base}/api/entries/${teamId}/details`)).json();
      const role = (name: string) =>
        details.players.find((p: { name: string }) => p.name === name)?.captain;
      assert.equal(role(second), "C");
      assert.equal(role(first), "V");

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
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
