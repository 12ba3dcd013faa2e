/**
 * The admin catalog screens and the public header, in a browser on the demo data:
 * Manage Players filters by club and position and deletes players (refused with the reason when
 * in an entry, asked first, keyboard only), the Clubs screen creates, edits and deletes clubs,
 * 'Create Sample Teams' appears on an empty site only, the dashboard's revenue leaves out a
 * cancelled competition, and the public header stays on one line, at 1280 and 390 px.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { type RunningServer, startServer } from "@/tests/helpers/server.ts";
import { competitionPlayers, expectToast, login, openAdmin, payForEntry } from "./admin_helpers.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  closeToast,
  type RowInfo,
  validTeam,
} from "./visitor_helpers.ts";
import { adminMoney } from "@/lib/client/admin/labels.ts";

interface AdminPlayer {
  id: number;
  name: string;
  position: string;
  teamId: number;
  team: { name: string } | null;
}

interface AdminCompetition {
  id: number;
  name: string;
  status: string;
  currentEntries: number;
  entryFee: number;
}

async function adminApi<T>(base: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${base}${path}`, { ...init, headers: ADMIN_HEADERS });
  const body = await res.json();
  assert.ok(res.ok, `${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body as T;
}

/** The ids of every row the current tab lists, paging through with Next. */
async function listedIds(page: Page): Promise<number[]> {
  const ids: number[] = [];
  const next = page.getByRole("navigation", { name: "Current players pages" })
    .getByRole("button", { name: "Next" });
  for (let i = 0; i < 20; i++) {
    ids.push(
      ...await page.locator("tr[data-player-id]").evaluateAll((rows) =>
        rows.map((r) => Number((r as HTMLElement).dataset.playerId))
      ),
    );
    if (await next.isDisabled()) return ids;
    await next.click();
  }
  throw new Error("more than 20 pages");
}

/** The Revenue figure of the dashboard's summary cards. */
async function revenueCard(page: Page): Promise<string> {
  const card = page.locator("p", { hasText: /^Revenue$/ }).locator("xpath=..");
  return (await card.locator("p").nth(1).innerText()).trim();
}

Deno.test("[e2e] player filters and deletion, clubs, sample teams, revenue, header", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  let empty: RunningServer | null = null;
  try {
    const base = server.url;
    const competitions = await adminApi<AdminCompetition[]>(base, "/api/admin/competitions");
    const hamper = competitions.find((c) => c.name.includes("Hamper Draw"))!;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await login(page, base);

    await t.step("Manage Players filters by club and by position", async () => {
      const all = await adminApi<AdminPlayer[]>(
        base,
        `/api/admin/competitions/${hamper.id}/players`,
      );
      assert.ok(all.length > 20, "the demo competition lists several pages of players");
      const club = [...all].sort((a, b) => a.team!.name.localeCompare(b.team!.name))[0];
      const clubName = club.team!.name;
      await openAdmin(page, base, `/admin/competitions/${hamper.id}/players`);
      assert.equal(
        await page.getByText(`Page 1 of ${Math.ceil(all.length / 10)}`).count(),
        1,
      );

      await page.getByLabel("Filter by team").selectOption({ label: clubName });
      const ofClub = all.filter((p) => p.teamId === club.teamId).map((p) => p.id).sort();
      assert.ok(ofClub.length < all.length);
      assert.deepEqual((await listedIds(page)).sort(), ofClub);
      assert.match(
        await page.locator("[role=tabpanel]:not([hidden])").innerText(),
        new RegExp(`${ofClub.length} of ${all.length} players`),
      );

      await page.getByLabel("Filter by position").selectOption({ label: "Goalkeepers" });
      const keepers = all.filter((p) => p.teamId === club.teamId && p.position === "GK")
        .map((p) => p.id).sort();
      assert.ok(keepers.length > 0 && keepers.length < ofClub.length);
      assert.deepEqual((await listedIds(page)).sort(), keepers);
      for (const row of await page.locator("tr[data-player-id]").all()) {
        const text = await row.innerText();
        assert.match(text, /GK/);
        assert.match(text, new RegExp(clubName));
      }
      await screenshot(page, "manage-players-filtered-1280");

      await page.getByLabel("Filter by team").selectOption({ label: "All Teams" });
      const allKeepers = all.filter((p) => p.position === "GK").map((p) => p.id).sort();
      assert.deepEqual((await listedIds(page)).sort(), allKeepers);

      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByLabel("Filter by team").selectOption({ label: clubName });
      assert.deepEqual((await listedIds(page)).sort(), keepers);
      await assertNoHorizontalScroll(page);
      await screenshot(page, "manage-players-filtered-390");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.step("a player in an entry is not deleted, and the reason is shown", async () => {
      const rows = await competitionPlayers(base, hamper.id) as RowInfo[];
      const picks = validTeam(rows);
      await payForEntry(base, {
        competitionId: hamper.id,
        playerIds: picks,
        teamName: "Keep Them",
        email: "keep@example.com",
      });
      const picked = (await competitionPlayers(base, hamper.id)).find((p) => p.id === picks[0])!;
      await openAdmin(page, base, `/admin/competitions/${hamper.id}/players`);
      await page.getByLabel("Search players").fill(picked.name);
      await page.getByRole("button", { name: `Delete ${picked.name}` }).click();
      const dialog = page.getByRole("dialog", { name: "Delete player" });
      await dialog.waitFor();
      assert.match(await dialog.innerText(), new RegExp(`Delete ${picked.name} for good\\?`));
      await dialog.getByRole("button", { name: "Delete Player" }).click();
      const toast = await expectToast(page, "Cannot Delete Player");
      assert.match(
        await toast.innerText(),
        new RegExp(
          `${picked.name} is in \\d+ entr(y|ies), so they cannot be deleted\\. ` +
            "Remove them from competitions instead\\.",
        ),
      );
      await screenshot(page, "manage-players-delete-refused-1280", { fullPage: false });
      assert.equal(await dialog.count(), 0);
      assert.equal(await page.locator(`tr[data-player-id="${picked.id}"]`).count(), 1);
      const still = await competitionPlayers(base, hamper.id);
      assert.ok(still.some((p) => p.id === picked.id), "the picked player is still there");
      await closeToast(page);
    });

    await t.step(
      "a player nobody picked is deleted with the keyboard, after a question",
      async () => {
        const clubs = await adminApi<{ id: number }[]>(base, "/api/admin/teams");
        const spare = await adminApi<{ id: number }>(base, "/api/admin/players", {
          method: "POST",
          body: JSON.stringify({ name: "Spare Keeper", position: "GK", teamId: clubs[0].id }),
        });
        await adminApi(base, `/api/admin/competitions/${hamper.id}/players`, {
          method: "POST",
          body: JSON.stringify({ playerIds: [spare.id] }),
        });
        await openAdmin(page, base, `/admin/competitions/${hamper.id}/players`);
        await page.getByLabel("Search players").fill("Spare Keeper");
        const deleteButton = page.getByRole("button", { name: "Delete Spare Keeper" });
        await deleteButton.focus();
        await page.keyboard.press("Enter");
        const dialog = page.getByRole("dialog", { name: "Delete player" });
        await dialog.waitFor();
        const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
        assert.equal(await focused(), "Cancel", "the safe choice has the focus");
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
        assert.equal(
          await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
          "Delete Spare Keeper",
          "Escape keeps the player and gives the focus back",
        );
        assert.equal(await page.locator(`tr[data-player-id="${spare.id}"]`).count(), 1);
        await page.keyboard.press("Enter");
        await dialog.waitFor();
        await page.keyboard.press("Tab");
        assert.equal(await focused(), "Delete Player");
        await page.keyboard.press("Enter");
        await expectToast(page, "Player Deleted", "Spare Keeper has been deleted.");
        await page.locator(`tr[data-player-id="${spare.id}"]`).waitFor({ state: "detached" });
        const left = await adminApi<AdminPlayer[]>(
          base,
          `/api/admin/competitions/${hamper.id}/players`,
        );
        assert.equal(left.some((p) => p.id === spare.id), false);
        const res = await fetch(`${base}/api/admin/players/${spare.id}`, {
          method: "DELETE",
          headers: ADMIN_HEADERS,
        });
        assert.equal(res.status, 404, "the player is gone for good");
        await res.body?.cancel();
      },
    );

    await t.step("the Clubs screen lists, creates, edits and deletes clubs", async () => {
      const before = await adminApi<{ id: number; name: string }[]>(base, "/api/admin/teams");
      await openAdmin(page, base, "/admin/dashboard");
      await page.getByRole("link", { name: "Clubs", exact: true }).click();
      await page.waitForURL("**/admin/clubs");
      await page.locator("tr[data-club-id]").first().waitFor();
      assert.equal(await page.locator("tr[data-club-id]").count(), before.length);
      assert.equal(await page.getByRole("button", { name: "Create Sample Teams" }).count(), 0);

      await page.getByRole("button", { name: "New Club" }).first().click();
      let dialog = page.getByRole("dialog", { name: "New Club" });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Create Club" }).click();
      assert.match(await dialog.innerText(), /Team name is required/);
      assert.match(await dialog.innerText(), /Short name is required/);
      await dialog.getByLabel("Club Name").fill("Eastfield Wanderers");
      await dialog.getByLabel("Short Name").fill("EFW");
      assert.doesNotMatch(await dialog.innerText(), /is required/, "a corrected field is clear");
      await dialog.getByLabel("League").selectOption({ label: "Serie A" });
      await screenshot(page, "clubs-new-dialog-1280", { fullPage: false });
      await dialog.getByRole("button", { name: "Create Club" }).click();
      await expectToast(page, "Club Created", "Eastfield Wanderers has been saved.");
      await dialog.waitFor({ state: "detached" });
      const created = (await adminApi<{ id: number; name: string; league: string }[]>(
        base,
        "/api/admin/teams",
      )).find((c) => c.name === "Eastfield Wanderers")!;
      assert.equal(created.league, "SERIE_A");
      const row = page.locator(`tr[data-club-id="${created.id}"]`);
      assert.match(await row.innerText(), /Eastfield Wanderers[\s\S]*EFW[\s\S]*Serie A/);

      await page.getByRole("button", { name: "Edit Eastfield Wanderers" }).click();
      dialog = page.getByRole("dialog", { name: "Edit Club" });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel("Short Name").inputValue(), "EFW");
      await dialog.getByLabel("Club Name").fill("Eastfield Rovers");
      await dialog.getByRole("button", { name: "Update Club" }).click();
      await expectToast(page, "Club Updated", "Eastfield Rovers has been saved.");
      await page.getByRole("button", { name: "Edit Eastfield Rovers" }).waitFor();
      const edited = (await adminApi<{ id: number; name: string }[]>(base, "/api/admin/teams"))
        .find((c) => c.id === created.id)!;
      assert.equal(edited.name, "Eastfield Rovers");

      const used = before[0];
      await page.getByRole("button", { name: `Delete ${used.name}` }).click();
      dialog = page.getByRole("dialog", { name: "Delete club" });
      await dialog.getByRole("button", { name: "Delete Club" }).click();
      const refusal = await expectToast(page, "Cannot Delete Club");
      assert.match(
        await refusal.innerText(),
        new RegExp(`${used.name} still has \\d+ players?: delete or move them first\\.`),
      );
      assert.equal(await page.locator(`tr[data-club-id="${used.id}"]`).count(), 1);
      await closeToast(page);
      await screenshot(page, "clubs-1280");

      await page.getByRole("button", { name: "Delete Eastfield Rovers" }).click();
      await page.getByRole("dialog", { name: "Delete club" })
        .getByRole("button", { name: "Delete Club" }).click();
      await expectToast(page, "Club Deleted", "Eastfield Rovers has been deleted.");
      assert.equal(await page.locator(`tr[data-club-id="${created.id}"]`).count(), 0);
      const after = await adminApi<{ id: number }[]>(base, "/api/admin/teams");
      assert.equal(after.some((c) => c.id === created.id), false);

      await page.setViewportSize({ width: 390, height: 844 });
      await openAdmin(page, base, "/admin/clubs");
      await page.locator("tr[data-club-id]").first().waitFor();
      await assertNoHorizontalScroll(page);
      await screenshot(page, "clubs-390");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.step("a populated site offers no 'Create Sample Teams'", async () => {
      await openAdmin(page, base, "/admin/matches/new");
      await page.getByRole("button", { name: "Create Match" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Create Sample Teams" }).count(), 0);
    });

    await t.step("the dashboard's revenue leaves out a cancelled competition", async () => {
      const rows = await adminApi<AdminCompetition[]>(base, "/api/admin/competitions");
      const sum = (list: AdminCompetition[]) =>
        list.filter((c) => c.status !== "CANCELLED")
          .reduce((s, c) => s + c.currentEntries * c.entryFee, 0);
      await openAdmin(page, base, "/admin/dashboard");
      assert.equal(await revenueCard(page), adminMoney(sum(rows)));
      const paid = rows.find((c) => c.id === hamper.id)!;
      assert.ok(paid.currentEntries > 0 && paid.status === "UPCOMING");
      await page.getByRole("button", { name: `Cancel ${paid.name} and refund everyone` })
        .first().click();
      const dialog = page.getByRole("dialog", { name: "Cancel competition" });
      await dialog.getByLabel("Reason (required; sent to every entrant)").fill(
        "The match was postponed.",
      );
      await dialog.getByRole("button", { name: "Cancel and refund everyone" }).click();
      await expectToast(page, "Competition Cancelled");
      const expected = adminMoney(sum(rows.filter((c) => c.id !== paid.id)));
      assert.notEqual(expected, adminMoney(sum(rows)), "the cancelled one had taken money");
      assert.equal(await revenueCard(page), expected, "at once, without a reload");
      await openAdmin(page, base, "/admin/dashboard");
      assert.equal(await revenueCard(page), expected, "and after a reload");
      assert.match(
        await page.locator(`tr[data-competition-id="${paid.id}"]`).innerText(),
        /refunded/,
      );
    });
    await context.close();

    await t.step("the public header stays on one line at 390 and 1280 px", async () => {
      for (const width of [390, 1280]) {
        const visitor = await browser.newContext({ viewport: { width, height: 800 } });
        const p = await visitor.newPage();
        for (const path of ["/", "/my-entries", `/team-selection/${hamper.id}`]) {
          await gotoHydrated(p, `${base}${path}`);
          const layout = await p.evaluate(() => {
            const header = document.querySelector("header")!;
            const logo = header.querySelector<HTMLElement>("[data-header-logo] span")!;
            const line = (el: Element) => el.getBoundingClientRect();
            const myEntries = header.querySelector('a[href="/my-entries"]')!;
            const rules = [...header.querySelectorAll("button")]
              .find((b) => b.textContent?.trim() === "Rules")!;
            const lineHeight = parseFloat(getComputedStyle(logo).lineHeight);
            return {
              header: line(header).height,
              logo: line(logo).height,
              logoCut: logo.scrollWidth > logo.clientWidth,
              lineHeight,
              myEntries: line(myEntries).height,
              myEntriesLine: parseFloat(getComputedStyle(myEntries).lineHeight),
              rulesRight: line(rules).right,
              overflow: header.scrollWidth > header.clientWidth,
            };
          });
          const where = `${path} at ${width} px`;
          assert.ok(layout.header <= 65, `${where}: header ${layout.header}px high`);
          assert.ok(layout.logo <= layout.lineHeight + 1, `${where}: the logo text wraps`);
          assert.equal(layout.logoCut, false, `${where}: the logo text is cut`);
          assert.ok(
            layout.myEntries <= layout.myEntriesLine + 12,
            `${where}: "My entries" wraps (${layout.myEntries}px)`,
          );
          assert.ok(layout.rulesRight <= width, `${where}: Rules is off screen`);
          assert.equal(layout.overflow, false, `${where}: the header overflows`);
        }
        await screenshot(p, `header-${width}`, { fullPage: false });
        await visitor.close();
      }
    });

    await t.step(
      "an empty site offers 'Create Sample Teams', and they are created",
      async () => {
        empty = await startServer({ env: { DEMO_DATA: "0" } });
        const emptyContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const p = await emptyContext.newPage();
        await login(p, empty.url);
        await openAdmin(p, empty.url, "/admin/matches/new");
        await p.getByText("No teams yet.").waitFor();
        assert.equal(await p.getByRole("button", { name: "Create Sample Teams" }).count(), 1);
        await openAdmin(p, empty.url, "/admin/clubs");
        await p.getByText("No clubs yet.").waitFor();
        await p.getByRole("button", { name: "Create Sample Teams" }).click();
        await expectToast(p, "Teams Created", "Created 4 sample Premier League teams");
        await p.locator("tr[data-club-id]").nth(3).waitFor();
        assert.equal(await p.locator("tr[data-club-id]").count(), 4);
        assert.equal(await p.getByRole("button", { name: "Create Sample Teams" }).count(), 0);
        await openAdmin(p, empty.url, "/admin/matches/new");
        await p.getByRole("button", { name: "Create Match" }).waitFor();
        assert.equal(await p.getByRole("button", { name: "Create Sample Teams" }).count(), 0);
        await emptyContext.close();
      },
    );
  } finally {
    await browser.close();
    await server.stop();
    if (empty) await (empty as RunningServer).stop();
  }
});
