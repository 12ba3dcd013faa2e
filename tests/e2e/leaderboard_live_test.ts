import { possessive } from "@/lib/domain/format.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { assertNoHorizontalScroll, assertNoSeriousAxeViolations } from "./visitor_helpers.ts";

const ADMIN_HEADERS = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

interface Row {
  teamId: string;
  displayName: string;
  points: number;
  rank: number;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return await res.json() as T;
}

/** Points as the page prints them: at most one decimal. */
function shown(points: number): string {
  return String(Math.round(points * 10) / 10);
}

async function ownRowPoints(page: Page, teamId: string): Promise<string> {
  return (await page.locator(`tr[data-team-id="${teamId}"] td`).nth(2).innerText()).trim();
}

Deno.test("[e2e] leaderboard: an admin's GOAL reaches an open visitor page within 2 s", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const competitions = await getJson<{ id: number; name: string; status: string }[]>(
      `${server.url}/api/competitions`,
    );
    const live = competitions.find((c) => c.status === "LIVE")!;
    assert.ok(live, "the demo data has a LIVE competition");
    const board = await getJson<Row[]>(`${server.url}/api/competitions/${live.id}/leaderboard`);
    const mine = board[board.length - 1];
    const details = await getJson<{ players: { id: number; name: string }[] }>(
      `${server.url}/api/entries/${mine.teamId}/details`,
    );
    const scorer = details.players[0];

    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await visitorContext.addInitScript((entry) => {
      localStorage.setItem("userEntries", JSON.stringify([entry]));
    }, { competitionId: live.id, teamId: mine.teamId });
    const visitor = await visitorContext.newPage();
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();

    await t.step("the visitor's page: header, table, own row, live push", async () => {
      await gotoHydrated(visitor, `${server.url}/leaderboard/${live.id}`);
      await visitor.getByRole("heading", { level: 1, name: live.name }).waitFor();
      assert.equal(await visitor.getByTestId("status").innerText(), "LIVE");
      assert.equal(await visitor.getByTestId("total").innerText(), String(board.length));
      await visitor.getByText("LIVE", { exact: true }).first().waitFor();
      const headers = await visitor.getByRole("table", { name: "Leaderboard" })
        .locator("th").allInnerTexts();
      assert.deepEqual(headers.map((h) => h.trim().toUpperCase()), [
        "RANK",
        "DISPLAY NAME",
        "POINTS",
        "VIEW TEAM",
      ]);
      const own = visitor.locator(`tr[data-team-id="${mine.teamId}"]`);
      assert.equal(await own.getAttribute("data-own"), "true");
      await visitor.getByText("Live updates on").waitFor({ timeout: 10_000 });
      await visitor.evaluate(() => (globalThis as Record<string, unknown>).__sameDocument = true);
      await screenshot(visitor, "leaderboard-live-1280", { fullPage: false });
    });

    await t.step("admin adds a GOAL: event and points show within 2 s, no reload", async () => {
      const before = await ownRowPoints(visitor, mine.teamId);
      const started = Date.now();
      const res = await admin.request.post(
        `${server.url}/api/admin/competitions/${live.id}/events`,
        {
          headers: ADMIN_HEADERS,
          data: { playerId: scorer.id, eventType: "GOAL", minute: 88, description: "Late winner" },
        },
      );
      assert.equal(res.status(), 201, await res.text());
      const after = (await getJson<Row[]>(
        `${server.url}/api/competitions/${live.id}/leaderboard?teamIds=${mine.teamId}`,
      )).find((row) => row.teamId === mine.teamId)!;
      assert.notEqual(shown(after.points), before, "the goal changes the visitor's points");

      const newest = visitor.getByTestId("events").locator("li").first();
      await newest.filter({ hasText: "Late winner" }).waitFor({ timeout: 2000 });
      assert.match(await newest.innerText(), new RegExp(`Goal[\\s\\S]*${scorer.name}`));
      const left = Math.max(1, 2000 - (Date.now() - started));
      await visitor.waitForFunction(
        ({ teamId, points }) =>
          document.querySelector(`tr[data-team-id="${teamId}"] td:nth-child(3)`)?.textContent
            ?.trim() === points,
        { teamId: mine.teamId, points: shown(after.points) },
        { timeout: left },
      );
      assert.ok(Date.now() - started <= 2000, `took ${Date.now() - started} ms`);
      assert.equal(
        await visitor.evaluate(() => (globalThis as Record<string, unknown>).__sameDocument),
        true,
        "the page was not reloaded",
      );
    });

    await t.step("with the push down, polling every 10 s shows new events", async () => {
      const offline = await visitorContext.newPage();
      await offline.routeWebSocket(/\/ws$/, (ws) => ws.close());
      await gotoHydrated(offline, `${server.url}/leaderboard/${live.id}`);
      await offline.getByText("Refreshing every 10 seconds").waitFor();
      const res = await admin.request.post(
        `${server.url}/api/admin/competitions/${live.id}/events`,
        {
          headers: ADMIN_HEADERS,
          data: { playerId: scorer.id, eventType: "ASSIST", minute: 89, description: "Polled" },
        },
      );
      assert.equal(res.status(), 201);
      await offline.getByTestId("events").getByText("Polled").waitFor({ timeout: 12_000 });
      await offline.close();
    });

    await t.step("the team dialog breaks the points down", async () => {
      await visitor.locator(`tr[data-team-id="${mine.teamId}"]`).getByRole("button").click();
      const dialog = visitor.getByRole("dialog", { name: `${possessive(mine.displayName)} Team` });
      await dialog.waitFor();
      await dialog.getByText(live.name).waitFor();
      await dialog.getByTestId("team-player").first().waitFor();
      assert.equal(await dialog.getByTestId("team-player").count(), 5);
      const card = dialog.getByTestId("team-player").filter({ hasText: scorer.name });
      assert.match(await card.innerText(), /Goals\s+\d+ × \d+ = \d+/);
      await assertNoSeriousAxeViolations(visitor);
      await screenshot(visitor, "leaderboard-dialog-1280", { fullPage: false });
      await visitor.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("phone layout", async () => {
      await visitor.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalScroll(visitor);
      await screenshot(visitor, "leaderboard-live-390");
    });

    await visitorContext.close();
    await adminContext.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
