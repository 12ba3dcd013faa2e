/**
 * Times a person can act on, in a browser set to Paris time at 390 and 1280 px on the
 * demo data: the contest card, the builder header (deadline and kick-off) and the confirmation
 * page (deadline, kick-off and the edit link's deadline) show date, clock and "CET"/"CEST", the
 * same instants the server wrote in UTC.
 */
import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { formatWhen } from "@/lib/domain/format.ts";
import {
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  postJson,
  type RowInfo,
  validTeam,
} from "./visitor_helpers.ts";

const ZONE = "Europe/Paris";
const WIDTHS = [390, 1280];
const LOCAL = /^\w{3} \d{1,2} \w{3}, \d\d:\d\d CES?T$/;

Deno.test("[e2e] times: deadlines and kick-offs in the visitor's zone, named", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const all: { id: number; name: string; deadline: string }[] =
      await (await fetch(`${base}/api/competitions`)).json();
    const sprint = all.find((c) => c.name.includes("Matchday Sprint"))!;
    const rows: RowInfo[] = await (await fetch(`${base}/api/competitions/${sprint.id}/players`))
      .json();
    const { paymentIntentId } = await postJson(`${base}/api/create-payment-intent`, {
      competitionId: sprint.id,
    });
    await postJson(`${base}/api/test-payments/confirm`, {
      paymentIntentId,
      cardNumber: "4242 4242 4242 4242",
    });
    const entry = await postJson(`${base}/api/entries`, {
      competitionId: sprint.id,
      email: "clock@example.com",
      teamName: "Clock Watchers",
      playerIds: validTeam(rows),
      stripePaymentId: paymentIntentId,
    });
    const deadline = formatWhen(sprint.deadline, ZONE);
    assert.match(deadline, LOCAL);

    for (const width of WIDTHS) {
      const context = await browser.newContext({
        viewport: { width, height: 844 },
        timezoneId: ZONE,
      });
      await context.addInitScript((saved) => {
        localStorage.setItem("userEntries", JSON.stringify([saved]));
      }, { competitionId: sprint.id, teamId: entry.teamId, editToken: entry.editToken });
      const page = await context.newPage();
      try {
        await t.step(
          `${width} px: the contest card closes in … and at a named local time`,
          async () => {
            await gotoHydrated(page, `${base}/`);
            const card = page.locator(`[data-contest-card="${sprint.id}"]`);
            const closing = card.locator("[data-closing]");
            assert.match(await closing.innerText(), /^Closes in \d+h · \w{3} /);
            const time = closing.locator("time");
            const at = await time.getAttribute("datetime");
            const minute = Math.floor(new Date(sprint.deadline).getTime() / 60_000) * 60_000;
            assert.equal(new Date(at!).getTime(), minute, "the deadline to the minute");
            assert.equal(await time.innerText(), deadline);
            await assertNoHorizontalScroll(page);
            await card.screenshot({ path: await shotPath(`times-card-${width}`) });
          },
        );

        await t.step(
          `${width} px: the builder header names the deadline and the kick-off`,
          async () => {
            await gotoHydrated(page, `${base}/team-selection/${sprint.id}`);
            const header = page.locator("section").first();
            const times = header.locator("time");
            const texts = await times.allInnerTexts();
            assert.ok(texts.includes(deadline), texts.join(" | "));
            const kickoff = header.locator("[data-kickoff]");
            assert.match(await kickoff.innerText(), /^\w{2,4} v \w{2,4} · Kick-off /);
            const kickoffIso = await kickoff.locator("time").getAttribute("datetime");
            assert.equal(await kickoff.locator("time").innerText(), formatWhen(kickoffIso!, ZONE));
            await assertNoHorizontalScroll(page);
            await assertNoSeriousAxeViolations(page);
            await header.screenshot({ path: await shotPath(`times-builder-header-${width}`) });
          },
        );

        await t.step(`${width} px: the confirmation page, before hydration and after`, async () => {
          await page.goto(`${base}/confirmation/${entry.teamId}`, { waitUntil: "commit" });
          const first = page.locator("[data-deadline] time");
          await first.waitFor();
          assert.equal(await first.innerText(), deadline, "the script wrote it before any island");
          await gotoHydrated(page, `${base}/confirmation/${entry.teamId}`);
          assert.equal(await page.locator("[data-deadline] time").innerText(), deadline);
          assert.match(await page.locator("[data-kickoff] time").innerText(), LOCAL);
          const edit = page.locator("[data-edit-team]").locator("xpath=..");
          assert.ok((await edit.innerText()).includes(`for free until ${deadline}.`));
          await assertNoHorizontalScroll(page);
          await assertNoSeriousAxeViolations(page);
          await screenshot(page, `times-confirmation-${width}`);
        });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});

async function shotPath(name: string): Promise<string> {
  const dir = Deno.env.get("SHOTS_DIR") || "/tmp/shots";
  await Deno.mkdir(dir, { recursive: true });
  return `${dir}/${name}.png`;
}
