/**
 * What fantasy players take for granted, in a browser at 390 and 1280 px on the demo data: the
 * informed builder (season line, opponent, player card, accent-free search), keyboard skip
 * links, one fair entry each in the checkout ("Entry 1 of 3" from the server once the e-mail is
 * typed, the same team refused before
 * paying, name and e-mail remembered), editing a paid team, the checkout disabling payment when
 * the contest closes, the home tabs and "Closes in 45m", and the leaderboard before kick-off.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  clickPlayers,
  closeToast,
  expectToast,
  readRows,
  type RowInfo,
  validTeam,
} from "./visitor_helpers.ts";

const WIDTHS = Deno.env.get("ONLY_WIDTH") ? [Number(Deno.env.get("ONLY_WIDTH"))] : [390, 1280];

async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: ADMIN_HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer as T;
}

interface MatchRow {
  id: number;
  homeTeamId: number;
  awayTeamId: number;
  status: string;
}

/**
 * A new contest on a demo match: its two clubs' players plus "Iñigo Peñalver", three entries per
 * person, closing at `deadline`.
 */
async function makeContest(base: string, name: string, deadline: Date) {
  const matches = await call<MatchRow[]>(base, "GET", "/api/admin/matches");
  const match = matches.find((m) => m.status === "SCHEDULED") ?? matches[0];
  const clubPlayers = (teamId: number) =>
    call<{ id: number }[]>(base, "GET", `/api/admin/teams/${teamId}/players`);
  const players = [
    ...await clubPlayers(match.homeTeamId),
    ...await clubPlayers(match.awayTeamId),
  ];
  const pena = await call<{ id: number }>(base, "POST", "/api/admin/players", {
    name: `Iñigo Peñalver ${name.replace(/\D/g, "")}`,
    position: "MID",
    salary: 1000,
    teamId: match.homeTeamId,
  });
  const form = {
    name,
    league: "LA_LIGA",
    entryFee: 5,
    prizePool: 100,
    deadline: deadline.toISOString(),
    matchId: match.id,
    maxEntriesPerPerson: 3,
    // The demo match may be over already: the clock would complete the contest at once.
    autoStatus: false,
  };
  const { id } = await call<{ id: number }>(base, "POST", "/api/admin/competitions", form);
  const playerIds = players.map((p) => p.id);
  await call(base, "POST", `/api/admin/competitions/${id}/players`, {
    playerIds: [...playerIds, pena.id],
  });
  return { id, form, match };
}

/** Picks five valid players, leaving out `avoid`. */
function teamWithout(rows: RowInfo[], avoid: number[]): number[] {
  return validTeam(rows.filter((r) => !avoid.includes(r.id)));
}

async function focusedText(page: Page): Promise<string> {
  return await page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
}

Deno.test("[e2e] player essentials: builder, keyboard, fair entry, edit, closing checkout, tabs", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const contest = await makeContest(
        base,
        `Essentials ${width}`,
        new Date(Date.now() + 45 * 60_000 + 30_000),
      );
      const email = `essentials-${width}@example.com`;
      let firstTeam: number[] = [];
      let confirmationUrl = "";

      await t.step(`${width}: home tabs, open first, 'Closes in 45m'`, async () => {
        await gotoHydrated(page, `${base}/`);
        const tabs = page.getByRole("tablist", { name: "Contests by status" });
        const names = await tabs.getByRole("tab").allInnerTexts();
        assert.match(
          names.join(" | "),
          /^Open \(\d+\) \| Closed \(\d+\) \| Live \(\d+\) \| Results \(\d+\)$/,
        );
        assert.equal(await tabs.getByRole("tab", { selected: true }).innerText(), names[0]);
        const card = page.locator(`[data-contest-card="${contest.id}"]`);
        assert.match(await card.innerText(), /Closes in 4[45]m/);
        // The default tab points at the live contests, and its note opens their tab.
        const note = page.locator("[data-live-note]");
        assert.match(await note.innerText(), /\d+ contests? (is|are) live now/);
        await note.click();
        const live = page.getByRole("list", { name: "Live contests" });
        await live.waitFor();
        assert.match(await live.innerText(), /LIVE/);
        assert.equal(new URL(page.url()).search, "?tab=live", "the address opens this tab");
        assert.equal(await page.locator("[data-live-note]:visible").count(), 0, "not on Live");
        await tabs.getByRole("tab", { name: /^Open/ }).click();
        await tabs.getByRole("tab", { name: /^Live/ }).click();
        await live.waitFor();
        await tabs.getByRole("tab", { name: /^Results/ }).press("Home");
        assert.equal(await tabs.getByRole("tab", { selected: true }).innerText(), names[0]);
        await assertNoHorizontalScroll(page);
        await screenshot(page, `essentials-home-${width}`, { fullPage: false });
      });

      await t.step(`${width}: skip link on every page`, async () => {
        await gotoHydrated(page, `${base}/my-entries`);
        await page.keyboard.press("Tab");
        assert.equal(await focusedText(page), "Skip to content");
        await page.keyboard.press("Enter");
        assert.equal(await page.evaluate(() => document.activeElement?.id), "content");
      });

      await t.step(`${width}: the builder informs (season, opponent, card, accents)`, async () => {
        await gotoHydrated(page, `${base}/team-selection/${contest.id}`);
        const row = page.locator(`li[data-team-id="${contest.match.homeTeamId}"]`).first();
        assert.match(
          await row.locator("[data-season]").innerText(),
          /^\d+ pts · \d+G \d+A \d+CS$/,
        );
        assert.match(
          await row.locator("[data-fixture]").innerText(),
          width < 640
            ? /^v [A-Z]{2,4} \((H|A)\)$/
            : /^· v [A-Z]{2,4} \((H|A)\) \w{3} \d{1,2} \w{3}, \d\d:\d\d \S+$/,
        );
        await row.locator("[data-player-info]").click();
        const card = page.getByRole("dialog");
        await card.waitFor();
        assert.match(await card.innerText(), /Season so far/i);
        assert.match(await card.innerText(), /Points/);
        await screenshot(page, `essentials-player-card-${width}`, { fullPage: false });
        await page.keyboard.press("Escape");
        await card.waitFor({ state: "detached" });
        await page.getByRole("searchbox", { name: "Search players" }).fill(
          `inigo penalver ${width}`,
        );
        const shown = page.locator("li[data-player-id]:not([hidden])");
        assert.equal(await shown.count(), 1, (await shown.allInnerTexts()).join(" | "));
        assert.match(await shown.innerText(), new RegExp(`Iñigo Peñalver ${width}`));
        await page.getByRole("searchbox", { name: "Search players" }).fill("");
        await assertNoHorizontalScroll(page);
        await assertNoSeriousAxeViolations(page);
        await screenshot(page, `essentials-builder-${width}`, { fullPage: false });
      });

      await t.step(`${width}: the keyboard skips the player list to Submit Team`, async () => {
        const rows = await readRows(page);
        firstTeam = validTeam(rows);
        await clickPlayers(page, firstTeam);
        await page.locator("[data-skip-players]").focus();
        assert.equal(await focusedText(page), "Skip the player list to Submit Team");
        await page.keyboard.press("Enter");
        assert.equal(await page.evaluate(() => document.activeElement?.id), "submit-bar");
        await page.keyboard.press("Tab");
        assert.equal(await focusedText(page), "Submit Team (5/5)");
      });

      await t.step(`${width}: checkout counts entries, pays, and offers the edit`, async () => {
        await page.keyboard.press("Enter");
        await page.waitForURL(`**/payment/${contest.id}`);
        await gotoHydrated(page, page.url());
        // No guess before the e-mail is known: the server counts the person's entries.
        assert.equal(await page.locator("[data-entry-count]").count(), 0);
        assert.match(await page.locator("[data-countdown]").innerText(), /^00:4\d:\d\d$/);
        await page.getByLabel("Display Name").fill(`Essentials ${width}`);
        await page.getByLabel("Email Address").fill(email);
        await page.locator("[data-entry-count]", { hasText: "Entry 1 of 3" }).waitFor();
        await page.getByLabel("Confirm Email").fill(email);
        await page.getByRole("button", { name: /^Proceed to Payment/ }).click();
        await page.getByRole("heading", { name: "Enter Payment Details" }).waitFor();
        assert.equal(await page.locator("[data-entry-count]").innerText(), "Entry 1 of 3");
        await page.getByLabel("Card number").fill("4242 4242 4242 4242");
        await page.getByRole("button", { name: /^Pay and Submit Entry/ }).click();
        await page.waitForURL("**/confirmation/**");
        const edit = page.locator("[data-edit-team]");
        await edit.waitFor();
        confirmationUrl = page.url();
        await screenshot(page, `essentials-confirmation-${width}`);
      });

      await t.step(`${width}: the same team again is refused before any payment`, async () => {
        await gotoHydrated(page, `${base}/team-selection/${contest.id}`);
        await clickPlayers(page, firstTeam);
        await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
        await page.waitForURL(`**/payment/${contest.id}`);
        await gotoHydrated(page, page.url());
        // The remembered e-mail is counted by the server (this browser's own list is not asked).
        await page.locator("[data-entry-count]", { hasText: "Entry 2 of 3" }).waitFor();
        assert.equal(await page.getByLabel("Email Address").inputValue(), email, "remembered");
        assert.equal(await page.getByLabel("Display Name").inputValue(), `Essentials ${width}`);
        await page.getByLabel("Confirm Email").fill(email);
        await page.getByRole("button", { name: /^Proceed to Payment/ }).click();
        const toast = await expectToast(page, "Error");
        assert.match(toast, /You already entered this exact team in this competition\./);
        await closeToast(page);
        assert.equal(await page.getByRole("heading", { name: "Enter Payment Details" }).count(), 0);
      });

      await t.step(`${width}: the paid team changes through its edit link`, async () => {
        await gotoHydrated(page, confirmationUrl);
        await page.locator("[data-edit-team]").click();
        await page.waitForURL("**/edit/**");
        await gotoHydrated(page, page.url());
        await page.getByRole("heading", { name: "Your Team (5/5)" }).waitFor();
        // The skip link names the button it leads to, which here saves rather than submits.
        await page.locator("[data-skip-players]").focus();
        assert.equal(await focusedText(page), "Skip the player list to Save Changes");
        const rows = await readRows(page);
        const next = teamWithout(rows, [firstTeam[0]]);
        await clickPlayers(page, firstTeam.filter((id) => !next.includes(id)));
        await clickPlayers(page, next.filter((id) => !firstTeam.includes(id)));
        await page.getByLabel("Display name").fill(`Edited ${width}`);
        await page.getByRole("button", { name: "Save Changes (5/5)" }).click();
        await expectToast(page, "Team saved");
        const token = page.url().split("/edit/")[1];
        const saved = await (await fetch(`${base}/api/team-edits/${token}`)).json();
        assert.equal(saved.revision, 1);
        assert.equal(saved.teamName, `Edited ${width}`);
        assert.deepEqual([...saved.playerIds].sort(), [...next].sort());
        await page.mouse.move(0, 0); // no button left hovered for the contrast check
        await assertNoHorizontalScroll(page);
        await assertNoSeriousAxeViolations(page);
        await screenshot(page, `essentials-edit-${width}`, { fullPage: false });
      });

      await t.step(`${width}: the leaderboard ranks no one before kick-off`, async () => {
        await gotoHydrated(page, `${base}/leaderboard/${contest.id}`);
        const first = page.locator("tbody tr").first();
        assert.match(await first.innerText(), /^–/);
        assert.match(await first.innerText(), new RegExp(`Edited ${width}`));
        await assertNoHorizontalScroll(page);
      });

      await t.step(`${width}: the checkout disables paying once the contest closes`, async () => {
        await gotoHydrated(page, `${base}/team-selection/${contest.id}`);
        const rows = await readRows(page);
        // The refused team is still this session's selection: take it off before picking anew.
        const slots = page.getByRole("button", { name: /^Remove / });
        while (await slots.count()) await slots.first().click();
        await page.getByRole("button", { name: "Submit Team (0/5)" }).waitFor();
        await clickPlayers(page, teamWithout(rows, firstTeam.slice(0, 2)));
        await page.getByRole("button", { name: "Submit Team (5/5)" }).click();
        await page.waitForURL(`**/payment/${contest.id}`);
        await gotoHydrated(page, page.url());
        const proceed = page.getByRole("button", { name: /^Proceed to Payment/ });
        assert.equal(await proceed.isEnabled(), true);
        await call(base, "PUT", `/api/admin/competitions/${contest.id}`, {
          ...contest.form,
          status: "LIVE",
          force: true,
          reason: "The match kicked off early",
        });
        // The page reads the contest again when the tab comes back into view.
        await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
        await page.locator("[data-pay-closed]").waitFor();
        assert.equal(
          await page.locator("[data-pay-closed]").innerText(),
          "This competition is live: entries are closed.",
        );
        assert.equal(await proceed.isDisabled(), true);
        await screenshot(page, `essentials-checkout-closed-${width}`, { fullPage: false });
      });

      await t.step(`${width}: after the deadline the edit link shows the locked team`, async () => {
        const entries = await (await fetch(`${base}/api/competitions/${contest.id}/leaderboard`))
          .json();
        assert.ok((entries.rows ?? entries).length >= 1);
        const stored = await page.evaluate(() => localStorage.getItem("userEntries"));
        const token = JSON.parse(stored ?? "[]").find((e: { editToken?: string }) => e.editToken)
          ?.editToken;
        assert.ok(token, "this browser keeps the edit link's secret");
        await gotoHydrated(page, `${base}/edit/${token}`);
        await page.locator("[data-locked-team]").waitFor();
        assert.match(await page.locator("[data-locked-team]").innerText(), /locked/);
        const share = await page.locator("[data-ownership]").first().textContent();
        assert.match(share ?? "", /^Picked by \d+%$/);
        await assertNoHorizontalScroll(page);
        await screenshot(page, `essentials-locked-${width}`);
      });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
