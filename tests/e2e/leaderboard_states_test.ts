import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  buyEntryOverApi,
} from "./visitor_helpers.ts";

interface Competition {
  id: number;
  name: string;
  status: string;
}

async function createCompetition(base: string, status: string): Promise<Competition> {
  const res = await fetch(`${base}/api/admin/competitions`, {
    method: "POST",
    headers: ADMIN_HEADERS,
    body: JSON.stringify({
      name: `Empty ${status} Cup`,
      league: "PREMIER_LEAGUE",
      entryFee: 5,
      prizePool: 50,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      status,
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json();
}

Deno.test("[e2e] leaderboard states: completed, upcoming, empty, not found", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const sockets: string[] = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    const competitions: Competition[] = await (await fetch(`${server.url}/api/competitions`))
      .json();

    await t.step("COMPLETED: events, podium and prizes, no live push", async () => {
      const done = competitions.find((c) => c.status === "COMPLETED")!;
      const prizes: { position: number; prize: number }[] = await (
        await fetch(`${server.url}/api/competitions/${done.id}/prizes`)
      ).json();
      await gotoHydrated(page, `${server.url}/leaderboard/${done.id}`);
      assert.equal(await page.getByTestId("status").innerText(), "COMPLETED");
      assert.equal(await page.getByText("LIVE", { exact: true }).count(), 0);
      await page.getByRole("heading", { name: "Recent Events" }).waitFor();
      // One podium step per rank among the top three (tied teams share their step).
      const standings: { rank: number; prize: number | null }[] = await (
        await fetch(`${server.url}/api/competitions/${done.id}/leaderboard`)
      ).json();
      const ranks = new Set(standings.map((e) => e.rank).filter((rank) => rank <= 3));
      assert.ok(ranks.size >= 2, "the demo's completed contest has a podium");
      const podium = page.getByTestId("podium-step");
      assert.equal(await podium.count(), ranks.size);
      assert.match(await podium.first().innerText(), /1st/);
      // The winner's prize: the first place's, or its share when teams tie for it.
      const tiedFirst = standings.filter((e) => e.rank === 1).length;
      const top = prizes.filter((p) => p.position <= tiedFirst).reduce(
        (sum, p) => sum + p.prize,
        0,
      );
      assert.equal(standings[0].prize, top / tiedFirst);
      const money = `$${standings[0].prize!.toFixed(2)}`;
      assert.match(await podium.first().innerText(), new RegExp(money.replace("$", "\\$")));
      const table = page.getByRole("table", { name: "Leaderboard" });
      assert.equal(await table.locator("tbody tr").first().getByText(money).count(), 1);
      assert.equal(await table.getByRole("button", { name: /View/ }).count() > 0, true);
      await assertNoSeriousAxeViolations(page);
      await screenshot(page, "leaderboard-completed-1280", { fullPage: false });
      assert.deepEqual(sockets, [], "no WebSocket unless LIVE");
    });

    await t.step("UPCOMING with an entry: no View Team column, no events", async () => {
      const upcoming = competitions.find((c) => c.status === "UPCOMING")!;
      const teamId = await buyEntryOverApi(server.url, upcoming.id, {
        email: "fan@example.com",
        teamName: "Early Birds",
      });
      await page.setViewportSize({ width: 390, height: 844 });
      await gotoHydrated(page, `${server.url}/leaderboard/${upcoming.id}`);
      assert.equal(await page.getByTestId("status").innerText(), "Upcoming");
      assert.equal(await page.getByRole("heading", { name: "Recent Events" }).count(), 0);
      const table = page.getByRole("table", { name: "Leaderboard" });
      const headers = await table.locator("th").allInnerTexts();
      assert.deepEqual(headers.map((h) => h.trim().toUpperCase()), [
        "RANK",
        "DISPLAY NAME",
        "POINTS",
      ]);
      await table.locator(`tr[data-team-id="${teamId}"]`).getByText("Early Birds").waitFor();
      assert.equal(await table.getByRole("button").count(), 0, "no View Team for UPCOMING");
      await assertNoHorizontalScroll(page);
      await screenshot(page, "leaderboard-upcoming-390");
      assert.deepEqual(sockets, []);
    });

    await t.step("empty states", async () => {
      const upcoming = await createCompetition(server.url, "UPCOMING");
      await gotoHydrated(page, `${server.url}/leaderboard/${upcoming.id}`);
      assert.equal(
        await page.getByTestId("empty-state").innerText(),
        "Competition has not started yet",
      );
      const live = await createCompetition(server.url, "LIVE");
      await gotoHydrated(page, `${server.url}/leaderboard/${live.id}`);
      assert.equal(
        await page.getByTestId("empty-state").innerText(),
        "No players have earned points yet.",
      );
      assert.equal(await page.getByTestId("total").innerText(), "0");
      await page.getByText("No game events yet.").waitFor();
      await screenshot(page, "leaderboard-empty-live-390");
    });

    await t.step("an unknown competition shows 'Competition Not Found' (404)", async () => {
      const res = await page.goto(`${server.url}/leaderboard/999999`);
      assert.equal(res?.status(), 404);
      await page.getByRole("heading", { name: "Competition Not Found" }).waitFor();
      const bad = await page.goto(`${server.url}/leaderboard/abc`);
      assert.equal(bad?.status(), 404);
      await page.getByRole("heading", { name: "Competition Not Found" }).waitFor();
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
