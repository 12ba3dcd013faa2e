/**
 * The checkout's notes, in a browser at 390 and 1280 px on the demo data: Apple Pay's
 * absence is said inline beside the payment options, only in a browser that offers Apple Pay
 * (never as a toast over the picks); a display name with a filler or invisible character is
 * refused by the form with the server's own message.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { HIDDEN_CHARACTER_MESSAGE } from "@/lib/domain/schemas/public.ts";
import { SELECTION_KEY } from "@/lib/client/selection.ts";
import {
  assertNoHorizontalScroll,
  assertNoSeriousAxeViolations,
  type RowInfo,
  validTeam,
} from "./visitor_helpers.ts";

const WIDTHS = [390, 1280];

/** The payment page of `competitionId` with five valid picks stored, as the builder leaves it. */
async function checkoutPage(
  browser: Browser,
  base: string,
  competitionId: number,
  width: number,
  applePayBrowser: boolean,
): Promise<Page> {
  const rows: RowInfo[] = await (await fetch(`${base}/api/competitions/${competitionId}/players`))
    .json();
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  await context.addInitScript(({ key, value, applePay }) => {
    sessionStorage.setItem(key, value);
    // Safari's Apple Pay entry point: present in browsers that offer Apple Pay.
    if (applePay) Object.defineProperty(window, "ApplePaySession", { value: function () {} });
  }, {
    key: SELECTION_KEY,
    value: JSON.stringify({ competitionId, playerIds: validTeam(rows) }),
    applePay: applePayBrowser,
  });
  const page = await context.newPage();
  await gotoHydrated(page, `${base}/payment/${competitionId}`);
  return page;
}

/** Runs `check` on a fresh checkout page (see `checkoutPage`), then closes its context. */
async function onCheckout(
  open: () => Promise<Page>,
  check: (page: Page) => Promise<void>,
): Promise<void> {
  const page = await open();
  try {
    await check(page);
  } finally {
    await page.context().close();
  }
}

async function fillContact(page: Page, teamName: string) {
  await page.getByLabel("Display Name").fill(teamName);
  await page.getByLabel("Email Address", { exact: true }).fill("notes@example.com");
  await page.getByLabel("Confirm Email").fill("notes@example.com");
  await page.getByRole("button", { name: /^Proceed to Payment/ }).click();
}

Deno.test("[e2e] checkout notes: Apple Pay said inline where it matters, look-alike names refused", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const base = server.url;
    const all: { id: number; name: string }[] = await (await fetch(`${base}/api/competitions`))
      .json();
    const sprint = all.find((c) => c.name.includes("Matchday Sprint"))!;
    for (const width of WIDTHS) {
      const open = (applePay: boolean) => () =>
        checkoutPage(browser, base, sprint.id, width, applePay);
      await t.step(
        `${width} px: a filler character in the name gets the server's message`,
        () =>
          onCheckout(open(false), async (page) => {
            for (const name of ["Al\u3164ce", "Tag\u{E0041}s", "Two\u2028Lines", "Mark\u061Cer"]) {
              await fillContact(page, name);
              const error = page.locator('[data-field-error="teamName"]');
              await error.waitFor();
              assert.equal(await error.innerText(), HIDDEN_CHARACTER_MESSAGE, JSON.stringify(name));
            }
            await assertNoHorizontalScroll(page);
            await screenshot(page, `checkout-name-refused-${width}`, { fullPage: false });
          }),
      );

      await t.step(
        `${width} px: a browser without Apple Pay is told nothing about it`,
        () =>
          onCheckout(open(false), async (page) => {
            await fillContact(page, "Android Army");
            await page.getByRole("heading", { name: "Enter Payment Details" }).waitFor();
            await page.locator("[data-test-card-form]").waitFor();
            assert.equal(await page.locator("[data-apple-pay-note]").count(), 0);
            assert.equal(await page.locator("[data-toast]").count(), 0, "no toast over the picks");
            assert.match(
              await page.locator("section[aria-labelledby=payment-title]").innerText(),
              /Pay with Apple Pay or any credit\/debit card\./,
            );
          }),
      );

      await t.step(
        `${width} px: an Apple Pay browser reads it beside the payment options`,
        () =>
          onCheckout(open(true), async (page) => {
            await fillContact(page, "Apple Fans");
            const section = page.locator("section[aria-labelledby=payment-title]");
            const note = section.locator("[data-apple-pay-note]");
            await note.waitFor();
            assert.equal(
              await note.innerText(),
              "Apple Pay Not Available (card payments remain available).",
            );
            assert.equal(await note.getAttribute("role"), "status");
            assert.equal(await page.locator("[data-toast]").count(), 0, "no toast over the picks");
            await assertNoHorizontalScroll(page);
            await assertNoSeriousAxeViolations(page);
            await section.screenshot({
              path: `${Deno.env.get("SHOTS_DIR") || "/tmp/shots"}/checkout-apple-pay-${width}.png`,
            });
          }),
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
});
