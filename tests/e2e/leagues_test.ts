import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  buyEntryAnswer,
} from "./visitor_helpers.ts";

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

/** A new contest on a demo match with both clubs' players, its clock off. */
async function makeContest(base: string, name: string) {
  const matches = await call<{ id: number; homeTeamId: number; awayTeamId: number }[]>(
    base,
    "GET",
    "/api/admin/matches",
  );
  const match = matches[0];
  const form = {
    name,
    league: "PREMIER_LEAGUE",
    entryFee: 5,
    prizePool: 100,
    deadline: new Date(Date.now() + 86_400_000).toISOString(),
    matchId: match.id,
    autoStatus: false,
  };
  const { id } = await call<{ id: number }>(base, "POST", "/api/admin/competitions", form);
  const players = [
    ...await call<{ id: number }[]>(base, "GET", `/api/admin/teams/${match.homeTeamId}/players`),
    ...await call<{ id: number }[]>(base, "GET", `/api/admin/teams/${match.awayTeamId}/players`),
  ];
  await call(base, "POST", `/api/admin/competitions/${id}/players`, {
    playerIds: players.map((p) => p.id),
  });
  return { id, form };
}

/** The points a row of the league board shows (Rank, Name, Contest, Points, View). */
function pointsOf(page: Page, teamId: string): Promise<string> {
  return page.locator(`tr[data-team-id="${teamId}"] td`).nth(3).innerText();
}

Deno.test("[e2e] leagues: create from an own entry, join through the invite, live board, leave", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    const contest = await makeContest(base, "League Night");
    const alice = await buyEntryAnswer(base, contest.id, {
      email: "alice@example.com",
      teamName: "Alice Eleven",
    });
    const bob = await buyEntryAnswer(base, contest.id, {
      email: "bob@example.com",
      teamName: "Bob Rovers",
    });
    await call(base, "PUT", `/api/admin/competitions/${contest.id}`, {
      ...contest.form,
      status: "LIVE",
      force: true,
      reason: "Kick-off",
    });
    const remember = (entry: Record<string, unknown>) => ({
      competitionId: contest.id,
      teamId: entry.teamId,
      editToken: entry.editToken,
    });
    const aliceContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await aliceContext.addInitScript((e) => {
      if (!localStorage.getItem("userEntries")) {
        localStorage.setItem("userEntries", JSON.stringify([e]));
      }
    }, remember(alice));
    const bobContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await bobContext.addInitScript((e) => {
      if (!localStorage.getItem("userEntries")) {
        localStorage.setItem("userEntries", JSON.stringify([e]));
      }
    }, remember(bob));
    const alicePage = await aliceContext.newPage();
    const bobPage = await bobContext.newPage();
    let invite = "";

    await t.step(
      "from the confirmation page, with the keyboard, Alice creates a league",
      async () => {
        await gotoHydrated(alicePage, `${base}/confirmation/${alice.teamId}`);
        await alicePage.getByRole("link", { name: "Create a league" }).focus();
        await alicePage.keyboard.press("Enter");
        await alicePage.waitForURL(`**/leagues/new?team=${alice.teamId}`);
        await gotoHydrated(alicePage, alicePage.url());
        await alicePage.getByLabel("League name").focus();
        await alicePage.keyboard.type("x");
        await alicePage.keyboard.press("Enter");
        const error = alicePage.getByRole("alert");
        await error.waitFor();
        assert.equal(await error.innerText(), "League name must be at least 2 characters");
        await alicePage.getByLabel("League name").fill("Friday Five");
        await alicePage.keyboard.press("Enter");
        await alicePage.locator("[data-league-created]").waitFor();
        invite = await alicePage.getByLabel("Invite link").inputValue();
        assert.match(invite, /\/leagues\/[\w-]{22}$/);
        await alicePage.getByRole("link", { name: "Open the league" }).click();
        await alicePage.waitForURL(`**${new URL(invite).pathname}`);
        await gotoHydrated(alicePage, alicePage.url());
        await alicePage.getByRole("heading", { level: 1, name: "Friday Five" }).waitFor();
        await alicePage.getByText("Live updates on").waitFor({ timeout: 10_000 });
        const rows = alicePage.getByRole("table", { name: "League leaderboard" }).locator(
          "tbody tr",
        );
        assert.equal(await rows.count(), 1);
      },
    );

    await t.step("Bob opens the invite link and adds his entry", async () => {
      const path = new URL(invite).pathname;
      await gotoHydrated(bobPage, `${base}${path}`);
      const add = bobPage.getByRole("button", { name: "Add Bob Rovers" });
      await add.focus();
      await bobPage.keyboard.press("Enter");
      await bobPage.getByText("Bob Rovers joined Friday Five.").waitFor();
      const table = bobPage.getByRole("table", { name: "League leaderboard" });
      await table.locator(`tr[data-team-id="${bob.teamId}"]`).waitFor();
      assert.equal(await table.locator("tbody tr").count(), 2);
      const headers = await table.locator("th").allTextContents();
      assert.deepEqual(headers.map((h) => h.replace(/\s+/g, " ").trim()), [
        "Rank",
        "Display Name",
        "Contest rank",
        "Points",
        "View Team",
      ]);
      await bobPage.getByRole("button", { name: "Leave the league with Bob Rovers" }).waitFor();
      await assertNoHorizontalScroll(bobPage);
      await assertNoSeriousAxeViolations(bobPage);
    });

    await t.step("a GOAL reaches both league pages through the contest's push", async () => {
      await gotoHydrated(alicePage, `${base}${new URL(invite).pathname}`);
      await alicePage.getByText("Live updates on").waitFor({ timeout: 10_000 });
      await bobPage.getByText("Live updates on").waitFor({ timeout: 10_000 });
      for (const page of [alicePage, bobPage]) {
        await page.evaluate(() => (globalThis as Record<string, unknown>).__same = true);
      }
      const before = await pointsOf(alicePage, String(alice.teamId));
      const details = await (await fetch(`${base}/api/entries/${alice.teamId}/details`)).json();
      const scorer = details.players[0].id;
      const started = Date.now();
      await call(base, "POST", `/api/admin/competitions/${contest.id}/events`, {
        playerId: scorer,
        eventType: "GOAL",
        minute: 12,
        description: "League opener",
      });
      const board = await (await fetch(`${base}/api/leagues/${invite.split("/").pop()}`)).json();
      const expected = new Map<string, string>(
        board.rows.map((r: { teamId: string; points: number }) => [
          r.teamId,
          String(Math.round(r.points * 10) / 10),
        ]),
      );
      assert.notEqual(expected.get(String(alice.teamId)), before, "the goal scores for Alice");
      for (const page of [alicePage, bobPage]) {
        await page.waitForFunction(
          ([teamId, points]) =>
            document.querySelector(`tr[data-team-id="${teamId}"] td:nth-child(4)`)?.textContent
              ?.trim() === points,
          [String(alice.teamId), expected.get(String(alice.teamId))!],
          { timeout: 10_000 },
        );
        assert.equal(
          await page.evaluate(() => (globalThis as Record<string, unknown>).__same),
          true,
          "no reload",
        );
      }
      console.log(`league boards updated ${Date.now() - started} ms after the GOAL`);
      await alicePage.getByTestId("events").getByText("League opener").waitFor();
      await screenshot(alicePage, "league-1280");
      await screenshot(bobPage, "league-390");
    });

    await t.step("Bob leaves; when Alice leaves too, the board says so", async () => {
      await bobPage.getByRole("button", { name: "Leave the league with Bob Rovers" }).click();
      await bobPage.getByText("Bob Rovers left Friday Five.").waitFor();
      await bobPage.getByRole("button", { name: "Add Bob Rovers" }).waitFor();
      const table = bobPage.getByRole("table", { name: "League leaderboard" });
      await bobPage.waitForFunction(() =>
        document.querySelectorAll('table[aria-label="League leaderboard"] tbody tr').length === 1
      );
      assert.equal(await table.locator(`tr[data-team-id="${bob.teamId}"]`).count(), 0);
      await alicePage.getByRole("button", { name: "Leave the league with Alice Eleven" }).click();
      await alicePage.getByTestId("empty-state").filter({ hasText: "No members yet" }).waitFor();
      await alicePage.locator('[data-member-count="0"]').waitFor();
      await screenshot(alicePage, "league-empty-1280", { fullPage: false });
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
