/**
 * The builder on a round, in a browser at 390 and 1280 px: every club's players with their
 * fixture and kick-off, the match filter; then late swap through the edit link once the first
 * match kicked off: its picks padlocked, each open pick's lock time, a refused swap naming the
 * player, and an open pick swapped and saved. Screenshots go to $SHOTS_DIR (late swap views).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  closeToast,
  expectToast,
} from "./visitor_helpers.ts";

const WIDTHS = [390, 1280];
const MINUTE = 60_000;
const SQUAD = ["GK", "DEF", "DEF", "MID", "FWD"] as const;

interface Made {
  id: number;
}

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

/** Three matches of new clubs (kick-offs in 10 min, 2 h, 4 h), a round and a late-swap contest. */
async function makeRoundContest(base: string) {
  const clubs: {
    id: number;
    shortName: string;
    players: { id: number; position: string; name: string }[];
  }[] = [];
  const names = ["Ashford", "Brampton", "Calder", "Dunmore", "Eastleigh", "Fairport"];
  for (const [i, name] of names.entries()) {
    const team = await call<Made & { shortName: string }>(base, "POST", "/api/admin/teams", {
      name: `${name} Town`,
      shortName: name.slice(0, 3).toUpperCase(),
      league: "PREMIER_LEAGUE",
      logoUrl: null,
    });
    const players = [];
    for (const [k, position] of SQUAD.entries()) {
      const player = await call<Made & { name: string }>(base, "POST", "/api/admin/players", {
        name: `${name} ${position}${k}`,
        position,
        teamId: team.id,
        salary: 5000 + 500 * ((i + k) % 4),
      });
      players.push({ id: player.id, position, name: player.name });
    }
    clubs.push({ id: team.id, shortName: team.shortName, players });
  }
  const now = Date.now();
  const kickoffs = [now + 10 * MINUTE, now + 120 * MINUTE, now + 240 * MINUTE];
  const matches: Made[] = [];
  for (const [i, at] of kickoffs.entries()) {
    matches.push(
      await call<Made>(base, "POST", "/api/admin/matches", {
        homeTeamId: clubs[2 * i].id,
        awayTeamId: clubs[2 * i + 1].id,
        league: "PREMIER_LEAGUE",
        kickoffTime: new Date(at).toISOString(),
        stadium: `${names[2 * i]} Park`,
      }),
    );
  }
  const round = await call<Made>(base, "POST", "/api/admin/rounds", {
    name: "Premier League, Matchday 14",
    matchIds: matches.map((m) => m.id),
  });
  const form = {
    name: "Matchday 14 Classic",
    league: "PREMIER_LEAGUE",
    entryFee: "5",
    prizePool: "50",
    roundId: round.id,
    lateSwap: true,
    autoStatus: false,
    salaryCap: "50000",
  };
  const contest = await call<Made & { deadline: string }>(
    base,
    "POST",
    "/api/admin/competitions",
    form,
  );
  await call(base, "POST", `/api/admin/competitions/${contest.id}/players`, {
    playerIds: clubs.flatMap((c) => c.players.map((p) => p.id)),
  });
  return { clubs, matches, kickoffs, contest, form };
}

async function post(base: string, path: string, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  assert.ok(res.ok, `${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Pays one entry with the test card; answers the entry (teamId, editToken). */
async function buy(base: string, competitionId: number, playerIds: number[]) {
  const { paymentIntentId } = await post(base, "/api/create-payment-intent", { competitionId });
  await post(base, "/api/test-payments/confirm", {
    paymentIntentId,
    cardNumber: "4242 4242 4242 4242",
  });
  return await post(base, "/api/entries", {
    competitionId,
    email: "swapper@example.com",
    teamName: "Late Swappers",
    playerIds,
    stripePaymentId: paymentIntentId,
  });
}

const visibleRows = (page: Page) => page.locator("li[data-player-id]:not([hidden])").count();

Deno.test("[rounds] the builder on a round and late swap through the edit link, at 390 and 1280 px", async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const { clubs, matches, contest, form } = await makeRoundContest(base);
    const [a, b, c, d, e, f] = clubs;
    const pick = (club: typeof a, position: string) =>
      club.players.find((p) => p.position === position)!;
    // Two picks in the first match, three in the later ones.
    const team = [pick(a, "GK"), pick(b, "DEF"), pick(c, "DEF"), pick(d, "MID"), pick(e, "FWD")];
    const entry = await buy(base, contest.id, team.map((p) => p.id));

    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await gotoHydrated(page, `${base}/team-selection/${contest.id}`);
      assert.equal(await visibleRows(page), 30, "every club's players of the round");
      const first = page.locator(`li[data-player-id="${pick(a, "GK").id}"] [data-fixture]`);
      assert.match(
        (await first.textContent()) ?? "",
        new RegExp(`${a.shortName} v ${b.shortName}`),
      );
      await page.locator("[data-match-filter]").selectOption(String(matches[1].id));
      assert.equal(await visibleRows(page), 10, "one match: its two clubs' players");
      await assertNoHorizontalScroll(page);
      await screenshot(page, `rounds-builder-${width}`);
      await page.close();
    }

    // The first match kicks off (reported a minute ago); the deadline has passed.
    const past = new Date(Date.now() - MINUTE).toISOString();
    await call(base, "PUT", `/api/admin/matches/${matches[0].id}`, {
      homeTeamId: a.id,
      awayTeamId: b.id,
      league: "PREMIER_LEAGUE",
      kickoffTime: past,
      stadium: "Ashford Park",
    });
    await call(base, "PUT", `/api/admin/competitions/${contest.id}`, {
      ...form,
      deadline: new Date(Date.now() - 2 * MINUTE).toISOString(),
    });

    let outgoing = pick(e, "FWD");
    for (const width of WIDTHS) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await gotoHydrated(page, `${base}/edit/${entry.editToken}`);
      assert.equal(await page.locator("[data-pick-locked]").count(), 2, "first-match picks");
      assert.equal(await page.locator("[data-lock-state=open]").count(), 3);
      assert.match(
        await page.locator("[data-lock-state=open]").first().innerText(),
        /^Locks /,
      );
      await screenshot(page, `late-swap-locks-${width}`);

      // A locked pick stays: the refusal names him and his lock time.
      await page.locator(`[data-pick-locked]`).first().click({ force: true });
      const refused = await expectToast(page, "Locked");
      assert.match(refused, / locked at \d\d:\d\d UTC/);
      await screenshot(page, `late-swap-refused-${width}`, { fullPage: false });
      await closeToast(page);

      // An open pick swaps for an open player of the same position.
      const incoming = [pick(f, "FWD"), pick(e, "FWD")].find((p) => p.id !== outgoing.id)!;
      await page.getByTitle(`Remove ${outgoing.name}`).click();
      await page.locator(`li[data-player-id="${incoming.id}"] button[aria-pressed]`).click();
      await page.getByRole("button", { name: /Save Changes/ }).click();
      await expectToast(page, "Team saved");
      await screenshot(page, `late-swap-saved-${width}`, { fullPage: false });
      outgoing = incoming;
      await page.close();
    }
    const view = await (await fetch(`${base}/api/team-edits/${entry.editToken}`)).json();
    assert.ok(view.playerIds.includes(outgoing.id), "the last swap is saved");
    assert.ok(view.playerIds.includes(pick(a, "GK").id), "the locked picks stayed");
  } finally {
    await browser.close();
    await server.stop();
  }
});
