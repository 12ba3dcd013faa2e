/**
 * My account in a browser at 390 and 1280 px on the demo data: a sign-in link asked for on the
 * page and opened, the person's entries and limits, and the checkout refusing a payment past the
 * daily limit with the limit's own message.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { SELECTION_KEY } from "@/lib/client/selection.ts";
import {
  ADMIN_HEADERS,
  assertNoHorizontalScroll,
  buyEntryOverApi,
  type RowInfo,
  validTeam,
} from "./visitor_helpers.ts";

const WIDTHS = [390, 1280];

/** The sign-in link the app e-mailed to `email` (read from the outbox, as support would). */
async function linkSentTo(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/outbox?to=${encodeURIComponent(email)}`, {
    headers: ADMIN_HEADERS,
  });
  const { messages } = await res.json() as { messages: { subject: string; text: string }[] };
  const mail = messages.find((m) => m.subject === "Your sign-in link");
  assert.ok(mail, `a sign-in link to ${email}`);
  return mail.text.match(/https?:\S+token=[\w-]+/)![0];
}

async function signIn(browser: Browser, base: string, email: string, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  await gotoHydrated(page, `${base}/account`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await page.getByRole("status").filter({ hasText: "We have e-mailed a sign-in link" }).waitFor();
  const link = new URL(await linkSentTo(base, email));
  await gotoHydrated(page, `${base}${link.pathname}${link.search}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByText(`Signed in as ${email}`).waitFor();
  return page;
}

async function checkout(page: Page, base: string, competitionId: number, email: string) {
  const rows: RowInfo[] = await (await fetch(`${base}/api/competitions/${competitionId}/players`))
    .json();
  await page.evaluate(({ key, value }) => sessionStorage.setItem(key, value), {
    key: SELECTION_KEY,
    value: JSON.stringify({ competitionId, playerIds: validTeam(rows) }),
  });
  await gotoHydrated(page, `${base}/payment/${competitionId}`);
  await page.getByLabel("Display Name").fill(`Limited ${Date.now() % 100000}`);
  await page.getByLabel("Email Address", { exact: true }).fill(email);
  await page.getByLabel("Confirm Email").fill(email);
  await page.getByRole("button", { name: /^Proceed to Payment/ }).click();
}

Deno.test("[e2e] My account: sign in by link, limits, and a payment refused past the limit", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const all: { id: number; name: string; entryFee: number; status: string }[] =
      await (await fetch(`${base}/api/competitions`)).json();
    const sprint = all.find((c) => c.name.includes("Matchday Sprint"))!;
    // Another paid contest: the sprint allows one entry per person, a refusal of its own.
    const other = all.find((c) => c.id !== sprint.id && c.entryFee > 0 && c.status === "UPCOMING")!;
    for (const width of WIDTHS) {
      await t.step(`${width} px`, async () => {
        const email = `limited${width}@example.com`;
        await buyEntryOverApi(base, sprint.id, { email, teamName: `Account ${width}` });
        const page = await signIn(browser, base, email, width);
        try {
          assert.match(await page.locator("main").innerText(), /Account \d+/);
          await page.getByLabel("Daily (24 hours)").fill(String(sprint.entryFee));
          await page.getByRole("button", { name: "Save limits" }).click();
          await page.getByRole("status").filter({ hasText: "Your limits are saved." }).waitFor();
          const spent = await page.locator('[data-limit="daily"]').innerText();
          assert.match(spent, /^Spent \$\d+\.\d\d of \$\d+\.\d\d$/);
          await assertNoHorizontalScroll(page);
          await screenshot(page, `account-${width}`);

          await checkout(page, base, other.id, email);
          const refusal = page.getByText(/Your daily limit of [$£]\d+\.\d\d is reached until/);
          await refusal.first().waitFor();
          await page.getByLabel("Email Address", { exact: true }).scrollIntoViewIfNeeded();
          await assertNoHorizontalScroll(page);
          await screenshot(page, `limit-refusal-${width}`, { fullPage: false });
        } finally {
          await page.context().close();
        }
      });
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
