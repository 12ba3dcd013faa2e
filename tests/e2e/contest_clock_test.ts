/**
 * A contest that is what it says: its players play in its match, its status follows
 * the clock unless an admin confirms otherwise with a reason, every admin write is on the
 * Activity screen, the Open tab holds only enterable contests, and a locked team says why.
 * Screenshots at 390 and 1280 px: the Open tab, an edit page before and after the deadline, and
 * the Activity screen.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { ADMIN, competitionPlayers, expectToast, login } from "./admin_helpers.ts";

const AS_ADMIN = {
  "content-type": "application/json",
  "x-admin-username": ADMIN.username,
  "x-admin-password": ADMIN.password,
};

async function call<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: AS_ADMIN,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  assert.ok(res.ok, `${method} ${path} answered ${res.status}: ${JSON.stringify(data)}`);
  return data as T;
}

interface MatchRow {
  id: number;
  homeTeamId: number;
  awayTeamId: number;
  league: string;
  kickoffTime: string;
  status: string;
}

/** A new contest on `match` offering its two clubs' players; returns its id and form body. */
async function contestOn(base: string, name: string, match: MatchRow, deadline: Date) {
  const body = {
    name,
    league: match.league,
    matchId: match.id,
    entryFee: "5",
    prizePool: "50",
    deadline: deadline.toISOString(),
    salaryCap: 60000,
  };
  const created = await call<{ id: number }>(base, "POST", "/api/admin/competitions", body);
  const available = await call<{ id: number; teamId: number }[]>(
    base,
    "GET",
    `/api/admin/competitions/${created.id}/available-players`,
  );
  await call(base, "POST", `/api/admin/competitions/${created.id}/players`, {
    playerIds: available.map((p) => p.id),
  });
  return { id: created.id, body, players: available };
}

/** A paid entry through the public API; returns the secret of its edit link. */
async function enter(base: string, competitionId: number, teamName: string): Promise<string> {
  const players = await competitionPlayers(base, competitionId);
  const need: Record<string, number> = { GK: 1, DEF: 2, MID: 2 };
  const perTeam = new Map<number, number>();
  const picks: number[] = [];
  for (const p of players.sort((a, b) => a.salary - b.salary)) {
    if (!need[p.position] || (perTeam.get(p.teamId) ?? 0) >= 3) continue;
    need[p.position]--;
    perTeam.set(p.teamId, (perTeam.get(p.teamId) ?? 0) + 1);
    picks.push(p.id);
  }
  const post = async <T>(path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await res.json();
    assert.ok(res.ok, `${path}: ${res.status} ${JSON.stringify(data)}`);
    return data as T;
  };
  const intent = await post<{ paymentIntentId: string }>("/api/create-payment-intent", {
    competitionId,
  });
  await post("/api/test-payments/confirm", {
    paymentIntentId: intent.paymentIntentId,
    cardNumber: "4242 4242 4242 4242",
  });
  const entry = await post<{ editToken: string }>("/api/entries", {
    competitionId,
    playerIds: picks,
    teamName,
    email: `${teamName.toLowerCase().replace(/\W/g, "")}@example.com`,
    stripePaymentId: intent.paymentIntentId,
  });
  return entry.editToken;
}

async function pageAt(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  return await context.newPage();
}

Deno.test("[contest clock] open means enterable, status by the clock or a reason, activity logged", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    const matches = await call<MatchRow[]>(base, "GET", "/api/admin/matches");
    const ahead = matches.filter((m) =>
      m.status === "UPCOMING" && Date.parse(m.kickoffTime) > Date.now() + 6 * 3_600_000
    );
    assert.ok(ahead.length >= 2, "the demo data has two matches ahead");
    const closing = await contestOn(
      base,
      "Closing Cup",
      ahead[0],
      new Date(Date.now() + 3_600_000),
    );
    const early = await contestOn(base, "Early Cup", ahead[1], new Date(ahead[1].kickoffTime));
    const closingToken = await enter(base, closing.id, "Night Owls");
    const earlyToken = await enter(base, early.id, "Early Birds");

    await t.step("a contest offers only its match's clubs", () => {
      const clubs = new Set([ahead[0].homeTeamId, ahead[0].awayTeamId]);
      assert.ok(closing.players.every((p) => clubs.has(p.teamId)));
    });

    await t.step("an edit page before the deadline: the builder (390 and 1280 px)", async () => {
      for (const width of [390, 1280]) {
        const page = await pageAt(browser, width);
        await gotoHydrated(page, `${base}/edit/${closingToken}`);
        await page.getByRole("button", { name: "Save Changes" }).waitFor();
        assert.equal(await page.locator("[data-locked-team]").count(), 0);
        await screenshot(page, `clock-edit-open-${width}`);
        await page.context().close();
      }
    });

    await call(base, "PUT", `/api/admin/competitions/${closing.id}`, {
      ...closing.body,
      deadline: new Date(Date.now() - 60_000).toISOString(),
    });

    await t.step("after the deadline: locked, saying the deadline passed", async () => {
      for (const width of [390, 1280]) {
        const page = await pageAt(browser, width);
        await gotoHydrated(page, `${base}/edit/${closingToken}`);
        await page.locator("[data-locked-team]").getByText(
          "The deadline has passed: this team is locked.",
        ).waitFor();
        await screenshot(page, `clock-edit-deadline-${width}`);
        await page.context().close();
      }
    });

    await t.step("the Open tab holds only enterable contests; Closed says why", async () => {
      for (const width of [390, 1280]) {
        const page = await pageAt(browser, width);
        await gotoHydrated(page, `${base}/`);
        const open = page.getByRole("tabpanel");
        await open.locator("[data-contest-card]").first().waitFor();
        assert.equal(await open.getByText("Closing Cup").count(), 0, "not in Open");
        assert.ok(await open.getByText("Early Cup").count() > 0, "still enterable");
        const label = await page.getByRole("tab", { name: /^Open \(\d+\)$/ }).innerText();
        const cards = await open.locator("[data-contest-card]").count();
        assert.equal(label, `Open (${cards})`, "the count is what the tab shows");
        await screenshot(page, `clock-open-tab-${width}`);
        await page.getByRole("tab", { name: /^Closed \(\d+\)$/ }).click();
        const card = page.locator("[data-contest-card]").filter({ hasText: "Closing Cup" });
        await card.getByText("The entry deadline has passed.").waitFor();
        assert.equal(await card.getByRole("link", { name: "Make Picks" }).count(), 0);
        await screenshot(page, `clock-closed-tab-${width}`);
        await page.context().close();
      }
    });

    const page = await pageAt(browser, 1280);
    await login(page, base);

    await t.step("LIVE before kick-off asks for a reason in a dialog", async () => {
      await gotoHydrated(page, `${base}/admin/competitions/edit/${early.id}`);
      await page.getByLabel("Status").selectOption("LIVE");
      await page.getByRole("button", { name: "Update Competition" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(/The match kicks off in .*: going LIVE now closes entries early\./)
        .waitFor();
      const confirm = dialog.getByRole("button", { name: "Set LIVE" });
      assert.equal(await confirm.isDisabled(), true, "no reason, no change");
      await dialog.getByLabel(/Reason/).fill("Kick-off brought forward by the league");
      await confirm.click();
      await page.waitForURL("**/admin/dashboard");
      await expectToast(page, "Competition Updated");
    });

    await t.step("the visitor's team says the contest went live, not the deadline", async () => {
      const visitor = await pageAt(browser, 390);
      await gotoHydrated(visitor, `${base}/edit/${earlyToken}`);
      await visitor.getByText("The contest went live: this team is locked.").waitFor();
      assert.equal(await visitor.getByText(/deadline has passed/).count(), 0);
      await visitor.context().close();
    });

    await t.step("leaving COMPLETED says which awards it withdraws", async () => {
      const rows = await call<{ id: number; status: string }[]>(
        base,
        "GET",
        "/api/admin/competitions",
      );
      const done = rows.find((r) => r.status === "COMPLETED")!;
      await gotoHydrated(page, `${base}/admin/competitions/edit/${done.id}`);
      await page.getByLabel("Status").selectOption("LIVE");
      await page.getByRole("button", { name: "Update Competition" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(/withdraws the awarded prizes: \d+ winners? \(\$[\d,.]+\)/).waitFor();
      await dialog.getByRole("button", { name: "Keep the status" }).click();
      await dialog.waitFor({ state: "hidden" });
    });

    await t.step("the Activity screen lists who did what and why (1280 and 390 px)", async () => {
      await page.goto(`${base}/admin/dashboard`);
      await page.getByRole("link", { name: "Activity" }).click();
      await page.waitForURL("**/admin/activity");
      const row = page.locator("tr").filter({ hasText: "Kick-off brought forward by the league" });
      await row.waitFor();
      assert.match(await row.innerText(), /admin[\s\S]*Change status[\s\S]*UPCOMING → LIVE/);
      await page.getByLabel("Action").selectOption("Change status");
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/action=Change\+status/);
      assert.equal(
        await page.locator("tbody tr").filter({ hasText: "Create competition" }).count(),
        0,
      );
      await row.waitFor();
      const csv = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
      assert.match(csv!, /^\/admin\/activity\/csv\?.*action=Change\+status/);
      await page.goto(`${base}/admin/activity`);
      await screenshot(page, "clock-activity-1280");
      await page.setViewportSize({ width: 390, height: 900 });
      await page.reload();
      await screenshot(page, "clock-activity-390");
      await gotoHydrated(page, `${base}/admin/competitions/edit/${early.id}`);
      await page.getByRole("heading", { name: "Activity" }).waitFor();
      await page.getByText("Kick-off brought forward by the league").waitFor();
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
