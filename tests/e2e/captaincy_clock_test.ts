/**
 * The leaderboard mid-match and at full time: each row's acting captain (filled disc) and how
 * many picks are still to play, as a visitor sees them at 1280 and 390 px. Screenshots go to
 * $SHOTS_DIR (default /tmp/shots).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import type { Competition, Match } from "@/lib/domain/types.ts";
import { lastName } from "@/lib/domain/format.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
} from "./visitor_helpers.ts";
import { expectToast, login, openAdmin } from "./admin_helpers.ts";

interface BoardRow {
  teamId: string;
  captainName?: string;
  viceCaptainName?: string;
  actingCaptainName?: string;
  actingCaptainRole?: "C" | "V";
  picksToPlay?: number;
}

async function boardRows(base: string, cid: number): Promise<BoardRow[]> {
  const res = await fetch(`${base}/api/competitions/${cid}/leaderboard`);
  assert.equal(res.status, 200);
  return await res.json();
}

async function send(base: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...ADMIN_HEADERS, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return await res.json();
}

/** What the page shows of a row: its acting armband's role and name, and its "n to play". */
async function shown(page: Page, teamId: string) {
  const row = page.locator(`table[aria-label='Leaderboard'] tr[data-team-id="${teamId}"]`);
  const mark = row.locator("[data-captains]");
  return {
    acting: await mark.getAttribute("data-acting"),
    toPlay: (await row.locator("[data-picks-to-play]").innerText()).trim(),
    words: await mark.locator(".sr-only").textContent(),
  };
}

Deno.test("[e2e] captaincy: the leaderboard shows each team's acting captain and picks still to play, mid-match and at full time", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const list: Competition[] = await (await fetch(`${base}/api/competitions`)).json();
    const live = list.find((x) => x.status === "LIVE" && x.captainMultiplier)!;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const table = page.getByRole("table", { name: "Leaderboard" });

    await t.step("mid-match: every captain acts, all five picks still to play", async () => {
      const rows = await boardRows(base, live.id);
      assert.ok(rows.length >= 3);
      for (const row of rows) {
        assert.equal(row.actingCaptainRole, "C", row.teamId);
        assert.equal(row.actingCaptainName, row.captainName);
        assert.equal(row.picksToPlay, 5);
      }
      await gotoHydrated(page, `${base}/leaderboard/${live.id}`);
      for (const row of rows) {
        const seen = await shown(page, row.teamId);
        assert.equal(seen.acting, "C");
        assert.equal(seen.toPlay, "5 to play");
        assert.match(seen.words!, new RegExp(`acting captain: ${row.captainName}$`));
      }
      assert.equal(await table.locator("[data-picks-to-play]").count(), rows.length);
      await page.mouse.move(0, 0);
      await assertNoSeriousAxeViolations(page);
      await screenshot(page, "leaderboard-mid-match-1280");
      await page.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalScroll(page);
      await screenshot(page, "leaderboard-mid-match-390");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.step("full time: a captain who never came on hands the ×2 to his vice", async () => {
      const rows = await boardRows(base, live.id);
      // A captain with nothing but his minutes recorded: with 0 minutes he did not play.
      let benched: { row: BoardRow; captainId: number } | null = null;
      for (const row of rows) {
        const details = await (await fetch(`${base}/api/entries/${row.teamId}/details`)).json();
        const captain = details.players.find((p: { captain: string }) => p.captain === "C");
        const lines = captain.breakdown.filter((l: { key: string }) => l.key !== "captain");
        if (lines.every((l: { key: string }) => l.key === "minutes")) {
          benched = { row, captainId: captain.id };
          break;
        }
      }
      assert.ok(benched, "a seeded captain without events");
      await send(base, "POST", `/api/admin/competitions/${live.id}/performances`, {
        performances: [{ playerId: benched.captainId, minutesPlayed: 0 }],
      });
      const before = await boardRows(base, live.id);
      assert.equal(
        before.find((r) => r.teamId === benched!.row.teamId)?.actingCaptainRole,
        "C",
        "0 minutes while in play: still the captain",
      );
      const match: Match = await (await fetch(`${base}/api/admin/matches/${live.matchId}`, {
        headers: ADMIN_HEADERS,
      })).json();
      const { homeTeamId, awayTeamId, league, kickoffTime, stadium } = match;
      await send(base, "PUT", `/api/admin/matches/${match.id}`, {
        homeTeamId,
        awayTeamId,
        league,
        kickoffTime,
        stadium,
        homeScore: match.homeScore ?? 0,
        awayScore: match.awayScore ?? 0,
      });
      const after = await boardRows(base, live.id);
      const row = after.find((r) => r.teamId === benched!.row.teamId)!;
      assert.equal(row.actingCaptainRole, "V");
      assert.equal(row.actingCaptainName, row.viceCaptainName);
      for (const r of after) assert.equal(r.picksToPlay, 0, "full time: nothing left to play");

      await page.waitForFunction(
        (teamId) =>
          document.querySelector(`tr[data-team-id="${teamId}"] [data-captains]`)
            ?.getAttribute("data-acting") === "V",
        row.teamId,
        { timeout: 15_000 },
      );
      const seen = await shown(page, row.teamId);
      assert.equal(seen.toPlay, "0 to play");
      assert.match(seen.words!, new RegExp(`acting captain: ${row.viceCaptainName}$`));
      await page.waitForSelector("tr[data-changed]", { state: "detached", timeout: 10_000 });
      await page.mouse.move(0, 0);
      await assertNoSeriousAxeViolations(page);
      await screenshot(page, "leaderboard-full-time-1280");
      // At 390 px the vice who took over shows, filled.
      await page.setViewportSize({ width: 390, height: 844 });
      await assertNoHorizontalScroll(page);
      const v = table.locator(`tr[data-team-id="${row.teamId}"] [data-armband='V']`);
      assert.equal(await v.isVisible(), true);
      assert.equal(
        (await v.innerText()).replace(/\s+/g, " ").trim(),
        `V ${lastName(row.viceCaptainName!)}`,
      );
      await screenshot(page, "leaderboard-full-time-390");
    });

    await t.step(
      "admin: a match is postponed in its form (no scores with it), the list says so",
      async () => {
        const matches: Match[] = await (await fetch(`${base}/api/admin/matches`, {
          headers: ADMIN_HEADERS,
        })).json();
        const future = matches.find((m) =>
          m.status === "UPCOMING" && Date.parse(m.kickoffTime) > Date.now()
        )!;
        await page.setViewportSize({ width: 1280, height: 900 });
        await login(page, base);
        await openAdmin(page, base, `/admin/matches/${future.id}`);
        const postponed = page.getByLabel("Postponed");
        assert.equal(await postponed.isChecked(), false);
        await page.getByLabel("Home Score").fill("1");
        await postponed.check();
        await page.getByRole("button", { name: "Update Match" }).click();
        await page.getByText("A postponed match has no result: clear both scores").first()
          .waitFor();
        await page.getByLabel("Home Score").fill("");
        assert.equal(await page.locator("[data-result]").innerText(), "Postponed");
        await assertNoSeriousAxeViolations(page);
        await screenshot(page, "admin-match-postponed-1280");
        await page.getByRole("button", { name: "Update Match" }).click();
        await expectToast(page, "Match Updated");
        await page.waitForURL("**/admin/matches");
        const badge = page.locator(`[data-status="POSTPONED"]`);
        await badge.waitFor();
        assert.equal((await badge.innerText()).trim(), "Postponed");
        const saved: Match = await (await fetch(`${base}/api/admin/matches/${future.id}`, {
          headers: ADMIN_HEADERS,
        })).json();
        assert.deepEqual([saved.status, saved.result], ["POSTPONED", "NOT_PLAYED"]);
        await screenshot(page, "admin-matches-postponed-1280");
      },
    );
  } finally {
    await browser.close();
    await server.stop();
  }
});
