/**
 * The live leaderboard at 390 and 1280 px on the demo data: after goals, the rows that moved
 * show arrows and the changed rows light up for a moment; the match minute runs beside the
 * score; the team dialog reads well on a phone.
 */
import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { ADMIN_HEADERS, assertNoHorizontalScroll } from "./visitor_helpers.ts";

interface Row {
  teamId: string;
  rank: number;
  points: number;
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  return await res.json() as T;
}

Deno.test("[e2e] leaderboard movement: arrows, highlights, match minute, dialog at 390", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const competitions = await getJson<{ id: number; status: string }[]>(
      `${server.url}/api/competitions`,
    );
    const live = competitions.find((c) => c.status === "LIVE")!;
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await t.step(
        `${width}: goals move the last team up with an arrow and a highlight`,
        async () => {
          await gotoHydrated(page, `${server.url}/leaderboard/${live.id}`);
          await page.getByText("Live updates on").waitFor({ timeout: 10_000 });
          const board = await getJson<Row[]>(
            `${server.url}/api/competitions/${live.id}/leaderboard?limit=100`,
          );
          const last = board[board.length - 1];
          const details = await getJson<{ players: { id: number }[] }>(
            `${server.url}/api/entries/${last.teamId}/details`,
          );
          for (let i = 0; i < 3; i++) {
            const res = await fetch(`${server.url}/api/admin/competitions/${live.id}/events`, {
              method: "POST",
              headers: ADMIN_HEADERS,
              body: JSON.stringify({
                playerId: details.players[0].id,
                eventType: "GOAL",
                minute: 70 + i,
              }),
            });
            assert.ok(res.ok, `goal: ${res.status}`);
            await res.body?.cancel();
          }
          const row = page.locator(`tr[data-team-id="${last.teamId}"]`).first();
          await row.locator('[data-move="up"]').waitFor({ timeout: 10_000 });
          assert.match(await row.locator("[data-move]").innerText(), /^▲\d+/);
          assert.match(await row.locator("[data-move]").textContent() ?? "", /up \d+ places?/);
          await page.locator("tr[data-changed]").first().waitFor();
          await screenshot(page, `leaderboard-movement-${width}`, { fullPage: false });
          // The highlight fades; the arrows stay until the next change.
          await page.locator("tr[data-changed]").first().waitFor({ state: "detached" });
          assert.equal(await row.locator('[data-move="up"]').count(), 1);
        },
      );

      await t.step(`${width}: the match minute runs beside the score`, async () => {
        const minute = page.getByTestId("match-minute");
        await minute.waitFor({ timeout: 10_000 });
        assert.match(await minute.innerText(), /^ · (\d{1,2}'|45\+'|HT|90\+')$/);
        assert.match(await page.getByTestId("match-state").innerText(), /^IN PLAY/i);
      });

      await t.step(`${width}: the team dialog fits the screen`, async () => {
        await page.getByRole("button", { name: /^View .*'s team$/ }).first().click();
        const dialog = page.getByRole("dialog");
        await dialog.getByTestId("team-player").first().waitFor();
        const box = await dialog.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= width, "the dialog is on screen");
        assert.match(await dialog.getByTestId("picked-by").first().innerText(), /^Picked by \d+%/);
        await assertNoHorizontalScroll(page);
        await screenshot(page, `leaderboard-team-dialog-${width}`, { fullPage: false });
        await page.keyboard.press("Escape");
      });
      await page.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
