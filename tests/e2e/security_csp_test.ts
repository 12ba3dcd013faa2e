/**
 * The CSP in a real Chromium: no page (visitor or admin, in test-payment mode) reports a
 * Content-Security-Policy violation, and hostile names entered through the API run no script.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchBrowser } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";

const ADMIN = { username: "admin", password: "admin-test-password" };
const XSS = `<img src=x onerror=alert(1)>`;
const HOSTILE = `${XSS}</script><script>alert(2)</script>"'&`;

/** A LIVE competition, its teams, players and an event named with HTML; returns its id. */
async function createHostileContest(base: string): Promise<number> {
  const headers = {
    "content-type": "application/json",
    "x-admin-username": ADMIN.username,
    "x-admin-password": ADMIN.password,
  };
  const call = async (method: string, path: string, body: unknown) => {
    const res = await fetch(base + path, { method, headers, body: JSON.stringify(body) });
    const json = await res.json();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const team = (name: string, shortName: string) =>
    call("POST", "/api/admin/teams", { name: `${name} ${HOSTILE}`, shortName, league: "SERIE_A" });
  const teams = [await team("Home", "HXS"), await team("Away", "AXS")];
  const squad = [[0, "GK"], [0, "DEF"], [0, "MID"], [1, "DEF"], [1, "FWD"]] as const;
  const playerIds: number[] = [];
  for (const [i, position] of squad) {
    const body = { name: `${position} ${HOSTILE}`, position, salary: 1000, teamId: teams[i].id };
    playerIds.push((await call("POST", "/api/admin/players", body)).id);
  }
  const form = {
    name: `Cup ${HOSTILE}`,
    description: `About ${HOSTILE}`,
    league: "SERIE_A",
    entryFee: 5,
    prizePool: 100,
    prizeType: "NON_CASH",
    customPrizeDescription: `Prize ${HOSTILE}`,
    deadline: new Date(Date.now() + 86_400_000).toISOString(),
  };
  const { id } = await call("POST", "/api/admin/competitions", form);
  await call("POST", `/api/admin/competitions/${id}/players`, { playerIds });
  const intent = await call("POST", "/api/create-payment-intent", { competitionId: id });
  await call("POST", "/api/test-payments/confirm", {
    paymentIntentId: intent.paymentIntentId,
    cardNumber: "4242 4242 4242 4242",
  });
  await call("POST", "/api/entries", {
    competitionId: id,
    email: "victim@example.com",
    teamName: XSS,
    playerIds,
    stripePaymentId: intent.paymentIntentId,
  });
  await call("PUT", `/api/admin/competitions/${id}`, {
    ...form,
    status: "LIVE",
    force: true,
    reason: "Live before its deadline for the test",
  });
  await call("POST", `/api/admin/competitions/${id}/events`, {
    playerId: playerIds[0],
    eventType: "GOAL",
    description: `Event ${HOSTILE}`,
    minute: 12,
  });
  return id;
}

/** Collects CSP violations (DOM events and console reports), dialogs and page errors. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  return problems;
}

async function violations(page: Page): Promise<string[]> {
  return await page.evaluate(() => (globalThis as unknown as { __csp: string[] }).__csp ?? []);
}

Deno.test("[e2e] no page reports a CSP violation; hostile names run no script", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const id = await createHostileContest(server.url);
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const found: string[] = [];
      (globalThis as unknown as { __csp: string[] }).__csp = found;
      document.addEventListener("securitypolicyviolation", (e) => {
        found.push(`${e.violatedDirective} blocked ${e.blockedURI} in ${e.sourceFile}`);
      });
    });
    const page = await context.newPage();
    const problems = watch(page);
    const sockets: string[] = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));

    const visit = async (path: string) => {
      await page.goto(server.url + path, { waitUntil: "networkidle" });
      await page.waitForTimeout(250); // late island effects (twind, sockets) report too
      assert.deepEqual([...await violations(page), ...problems.splice(0)], [], path);
    };

    await t.step("visitor pages", async () => {
      for (
        const path of [
          "/",
          `/team-selection/${id}`,
          `/payment/${id}`,
          `/leaderboard/${id}`,
          "/leaderboard/1",
          "/confirmation/FFT-NOPE0000",
          "/email-test",
          "/no-such-page",
        ]
      ) await visit(path);
      assert.ok(sockets.some((url) => url.endsWith("/ws")), "the live leaderboard opened /ws");
    });

    await t.step("admin pages", async () => {
      await visit("/admin/login");
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: /log ?in|sign in/i }).click();
      await page.waitForURL(/\/admin\/dashboard/);
      for (
        const path of [
          "/admin/dashboard",
          "/admin/competitions/new",
          `/admin/competitions/edit/${id}`,
          `/admin/competitions/${id}/players`,
          `/admin/competitions/${id}/prizes`,
          `/admin/competitions/${id}/events`,
          "/admin/matches",
          "/admin/matches/new",
          "/admin/player-performances",
        ]
      ) await visit(path);
    });
  } finally {
    await browser.close();
    await server.stop();
  }
});
