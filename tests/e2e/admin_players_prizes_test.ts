/**
 * The admin portal's small things, in a browser at 390 and 1280 px on the demo data: a Players
 * screen that adds a player to any club, the delete dialog naming paid entries before anything
 * is tried, "Add Position" never adding a $0 row, toasts clear of the tables' row actions, a new
 * competition's cap checked against its match's players, and the cancel dialog asking for its
 * reason.
 */
import assert from "node:assert/strict";
import { launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { expectToast, login, openAdmin } from "./admin_helpers.ts";
import { assertNoHorizontalScroll } from "./visitor_helpers.ts";

interface Row {
  id: number;
  name: string;
  entries: number;
  status: string;
  prizePool: number;
}

Deno.test("[e2e] admin: players screen, delete dialog, prize rows, toasts", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const base = server.url;
  try {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await login(page, base);

      await t.step(`${width}: the Players screen lists and adds players to any club`, async () => {
        await openAdmin(page, base, "/admin/players");
        await page.getByRole("heading", { name: "Players", exact: true }).waitFor();
        const rows = page.locator("tr[data-player-id]");
        await rows.first().waitFor();
        const before = await rows.count();
        await page.getByRole("button", { name: "Add Player" }).first().click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Club").selectOption({ index: 1 });
        await dialog.getByLabel("Player Name").fill(`Screen Player ${width}`);
        await dialog.getByLabel("Position").selectOption("MID");
        await dialog.getByRole("button", { name: "Add Player" }).click();
        await expectToast(page, "Player Created");
        await page.locator("tr[data-player-id]").nth(before).waitFor();
        await page.getByLabel("Search players").fill(`screen player ${width}`);
        assert.equal(await page.locator("tr[data-player-id]").count(), 1);
        await assertNoHorizontalScroll(page);
        await screenshot(page, `admin-players-${width}`, { fullPage: false });
      });

      await t.step(
        `${width}: the delete dialog names paid entries and refuses to start`,
        async () => {
          const rows: Row[] = await (await page.request.get(`${base}/api/admin/competitions`))
            .json();
          const paid = rows.find((r) => r.entries > 0)!;
          await openAdmin(page, base, "/admin/dashboard");
          await page.getByRole("button", { name: `Delete ${paid.name}` }).first().click();
          const dialog = page.getByRole("dialog");
          const text = await dialog.innerText();
          assert.match(
            text,
            new RegExp(`has ${paid.entries} paid entr(y|ies), so it cannot be deleted`),
          );
          assert.equal(await dialog.getByRole("button", { name: "Delete" }).isDisabled(), true);
          await screenshot(page, `admin-delete-dialog-${width}`, { fullPage: false });
          await dialog.getByRole("button", { name: "Cancel" }).click();
        },
      );

      await t.step(
        `${width}: 'Add Position' never adds a $0 row; toasts clear the actions`,
        async () => {
          const rows: Row[] = await (await page.request.get(`${base}/api/admin/competitions`))
            .json();
          const upcoming = rows.find((r) => r.status === "UPCOMING")!;
          await openAdmin(page, base, `/admin/competitions/${upcoming.id}/prizes`);
          const amounts = page.getByLabel("Prize Amount ($)");
          await amounts.first().waitFor();
          await amounts.first().fill(String(upcoming.prizePool));
          while (await amounts.count() > 1) {
            await page.getByRole("button", { name: /^Remove position/ }).last().click();
          }
          await page.getByRole("button", { name: "Add Position" }).click();
          const values = await amounts.evaluateAll((els) =>
            els.map((e) => Number((e as HTMLInputElement).value))
          );
          assert.equal(values.length, 2);
          assert.ok(values.every((v) => v > 0), `no $0 row: ${values}`);
          assert.equal(values[0] + values[1], upcoming.prizePool);
          await page.getByRole("button", { name: "Save Prize Structure" }).click();
          const toast = await expectToast(page, "Prize Structure Updated");
          const box = await toast.boundingBox();
          if (width >= 640) {
            assert.ok(
              box && box.x < width / 2,
              "admin toasts sit on the left, away from row actions",
            );
          }
          await screenshot(page, `admin-prizes-${width}`, { fullPage: false });
        },
      );

      await t.step(`${width}: a competition's match offers its clubs' players`, async () => {
        const matches: { id: number; homeTeamId: number; awayTeamId: number }[] =
          await (await page.request.get(`${base}/api/admin/matches`)).json();
        const match = matches[0];
        const created = await page.request.post(`${base}/api/admin/competitions`, {
          data: {
            name: `Match Offer ${width}`,
            league: "PREMIER_LEAGUE",
            entryFee: 5,
            prizePool: 50,
            matchId: match.id,
          },
        });
        assert.equal(created.status(), 201);
        const { id } = await created.json();
        await openAdmin(page, base, `/admin/competitions/${id}/players`);
        const offer = page.locator("[data-match-players]");
        await offer.waitFor();
        const button = offer.getByRole("button", { name: /^Add the match's \d+ players$/ });
        const count = Number((await button.innerText()).match(/\d+/)![0]);
        await button.click();
        await offer.waitFor({ state: "detached" });
        const players: { teamId: number }[] =
          await (await page.request.get(`${base}/api/admin/competitions/${id}/players`)).json();
        assert.equal(players.length, count);
        assert.ok(
          players.every((p) => p.teamId === match.homeTeamId || p.teamId === match.awayTeamId),
        );
        await screenshot(page, `admin-match-players-${width}`, { fullPage: false });
      });

      await t.step(
        `${width}: a new competition on a match starts from a cap its players fit; a cap too low is refused`,
        async () => {
          await openAdmin(page, base, "/admin/competitions/new");
          await page.getByLabel("Name").fill(`Cap Check ${width}`);
          assert.equal(await page.getByLabel("Salary Cap").inputValue(), "50000");
          await page.getByLabel("Match").selectOption({ index: 1 });
          // The cap follows the match's players: not the rules' default, a round thousand.
          await page.waitForFunction(() => {
            const cap = (document.getElementById("salaryCap") as HTMLInputElement | null)?.value;
            return cap !== undefined && cap !== "50000" && Number(cap) % 1000 === 0;
          });
          const suggested = await page.getByLabel("Salary Cap").inputValue();
          await page.getByLabel("Salary Cap").fill("5000");
          await page.getByRole("button", { name: "Create Competition" }).click();
          const error = page.locator("#salaryCap-error");
          await error.waitFor();
          assert.match(await error.innerText(), /under the salary cap of \$5,000\. Raise the cap/);
          assert.equal(await page.getByLabel("Salary Cap").getAttribute("aria-invalid"), "true");
          assert.match(page.url(), /\/admin\/competitions\/new$/, "nothing was saved");
          await screenshot(page, `admin-cap-check-${width}`, { fullPage: false });
          await page.getByLabel("Salary Cap").fill(suggested);
          await page.getByRole("button", { name: "Create Competition" }).click();
          await page.waitForURL("**/admin/dashboard");
          await expectToast(page, "Competition Created");
        },
      );

      await t.step(`${width}: the cancel dialog says its reason is required`, async () => {
        const rows: Row[] = await (await page.request.get(`${base}/api/admin/competitions`)).json();
        const upcoming = rows.find((r) => r.status === "UPCOMING")!;
        await openAdmin(page, base, "/admin/dashboard");
        await page.getByRole("button", { name: `Cancel ${upcoming.name} and refund everyone` })
          .first()
          .click();
        const dialog = page.getByRole("dialog");
        assert.match(await dialog.innerText(), /Reason \(required/);
        await page.keyboard.press("Escape");
      });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
