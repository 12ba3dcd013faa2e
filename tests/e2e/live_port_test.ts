/**
 * The live feed on its own port (LIVE_WS_PORT) in Chromium: the leaderboard's CSP lets the page
 * reach it, the socket joins ("Live updates on") and an admin's GOAL arrives without a reload.
 */
import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser } from "@/tests/helpers/browser.ts";
import { freePort, startServer } from "@/tests/helpers/server.ts";
import { ADMIN_HEADERS } from "./visitor_helpers.ts";

Deno.test("[e2e] leaderboard over LIVE_WS_PORT: joined, and a GOAL arrives", async () => {
  const port = freePort();
  const server = await startServer({ env: { LIVE_WS_PORT: String(port) } });
  const browser = await launchBrowser();
  try {
    const competitions = await (await fetch(`${server.url}/api/competitions`)).json() as {
      id: number;
      status: string;
    }[];
    const live = competitions.find((c) => c.status === "LIVE")!;
    assert.ok(live, "the demo data has a LIVE competition");
    const board = await (await fetch(`${server.url}/api/competitions/${live.id}/leaderboard`))
      .json() as { teamId: string }[];
    const details = await (await fetch(`${server.url}/api/entries/${board[0].teamId}/details`))
      .json() as { players: { id: number }[] };

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    const sockets: string[] = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    await gotoHydrated(page, `${server.url}/leaderboard/${live.id}`);
    await page.getByText("Live updates on").waitFor({ timeout: 10_000 });
    assert.deepEqual(sockets, [`ws://127.0.0.1:${port}/ws`]);

    const res = await fetch(`${server.url}/api/admin/competitions/${live.id}/events`, {
      method: "POST",
      headers: { ...ADMIN_HEADERS, "content-type": "application/json" },
      body: JSON.stringify({
        playerId: details.players[0].id,
        eventType: "GOAL",
        minute: 90,
        description: "Own port winner",
      }),
    });
    assert.equal(res.status, 201, await res.text());
    // Well inside the 10 s poll: the event came over the socket (a loaded machine may take a
    // few seconds to get it there).
    await page.getByTestId("events").getByText("Own port winner").waitFor({ timeout: 5000 });
    assert.deepEqual(problems, [], "no console errors (a CSP refusal would be one)");
  } finally {
    await browser.close();
    await server.stop();
  }
});
