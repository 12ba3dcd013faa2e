import assert from "node:assert/strict";
import { type RulePlayer, rulesOf, validateTeam } from "@/lib/domain/team_rules.ts";
import { gotoHydrated, launchBrowser } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";
import { competitionPlayers, expectToast, login, payForEntry } from "./admin_helpers.ts";

const SHOTS = Deno.env.get("SHOTS_DIR") || "/tmp/shots";

/** The first five cheapest players that make a valid team under the competition's rules. */
async function validPicks(base: string, competitionId: number): Promise<number[]> {
  const competition = await (await fetch(`${base}/api/competitions/${competitionId}`)).json();
  const cheapest = (await competitionPlayers(base, competitionId))
    .sort((a, b) => a.salary - b.salary).slice(0, 14);
  let picks: number[] = [];
  const choose = (from: number, chosen: typeof cheapest) => {
    if (picks.length) return;
    if (chosen.length === 5) {
      if (validateTeam(chosen as RulePlayer[], rulesOf(competition)).length === 0) {
        picks = chosen.map((p) => p.id);
      }
      return;
    }
    for (let i = from; i < cheapest.length; i++) choose(i + 1, [...chosen, cheapest[i]]);
  };
  choose(0, []);
  assert.equal(picks.length, 5);
  return picks;
}

Deno.test("[formats] the admin creates a match's contests in one go; the lobby card shows the growing pool; the private one is not listed", async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await login(page, base);
    const matches: { id: number; kickoffTime: string }[] =
      await (await page.request.get(`${base}/api/admin/matches`)).json();
    const match = matches.find((m) => Date.parse(m.kickoffTime) > Date.now() + 86_400_000)!;

    await gotoHydrated(page, `${base}/admin/matches/${match.id}`);
    const form = page.locator("[data-contest-templates]");
    await form.getByLabel("Private").check();
    await form.getByLabel("Entry fee").fill("5");
    await Deno.mkdir(SHOTS, { recursive: true });
    await form.screenshot({ path: `${SHOTS}/admin-create-contests.png` });
    await form.getByRole("button", { name: "Create contests for this match" }).click();
    await expectToast(page, "Contests Created");

    const rows: { id: number; name: string; matchId: number; unlisted?: boolean }[] =
      await (await page.request.get(`${base}/api/admin/competitions`)).json();
    const made = rows.filter((r) => r.matchId === match.id);
    const tournament = made.find((r) => r.name.endsWith("· Tournament"))!;
    const priv = made.find((r) => r.name.endsWith("· Private"))!;
    assert.ok(tournament && priv, made.map((r) => r.name).join(", "));
    assert.equal(made.length, 4);

    const picks = await validPicks(base, tournament.id);
    for (let i = 1; i <= 3; i++) {
      await payForEntry(base, {
        competitionId: tournament.id,
        playerIds: picks,
        teamName: `Pool Fan ${i}`,
        email: `pool.fan${i}@example.com`,
      });
    }

    const card = page.locator(`[data-contest-card="${tournament.id}"]`);
    // The lobby is rendered once per time slot: reload until the slot after the entries.
    await waitFor("the card's pool after 3 entries", async () => {
      await gotoHydrated(page, `${base}/`);
      return /\$13\.50/.test(await card.innerText()); // 3 × 5.00 × 90%
    }, { timeoutMs: 60_000, everyMs: 1000 });
    assert.match(await card.innerText(), /Grows with every entry/);
    assert.equal(await page.locator(`[data-contest-card="${priv.id}"]`).count(), 0);
    await card.screenshot({ path: `${SHOTS}/lobby-growing-pool-card.png` });

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await gotoHydrated(small, `${base}/`);
    const smallCard = small.locator(`[data-contest-card="${tournament.id}"]`);
    await smallCard.scrollIntoViewIfNeeded();
    assert.match(await smallCard.innerText(), /\$13\.50/);
    await smallCard.screenshot({ path: `${SHOTS}/lobby-growing-pool-card-390.png` });

    const privatePage = await page.request.get(`${base}/team-selection/${priv.id}`);
    assert.equal(privatePage.status(), 200, "the private contest is reached by its link");
  } finally {
    await browser.close();
    await server.stop();
  }
});
