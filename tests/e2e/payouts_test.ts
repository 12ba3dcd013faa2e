import assert from "node:assert/strict";
import { launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";
import { axeViolations, login } from "./admin_helpers.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

interface Payout {
  competitionId: number;
  entryId: number;
  teamId: string;
  state: string;
}

const ADMIN = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

Deno.test("[payouts] a winner claims on their private page; the admin pays, at 1280 and 390 px", async (t) => {
  const smtp = await startTestSmtp();
  const server = await startServer({ env: { SMTP_URL: smtp.url } });
  const browser = await launchBrowser();
  const base = server.url;
  try {
    // The demo's completed contest awarded its prizes at start; the sweep e-mails the links.
    const token = await waitFor("a winner was e-mailed a claim link", () => {
      const raw = smtp.messages.map((m) => m.raw.replace(/=\r?\n/g, "")).join("\n");
      return /\/claim\/([A-Za-z0-9_-]{22})/.exec(raw)?.[1];
    }, { timeoutMs: 60_000, everyMs: 100 });
    // bypassCSP lets the test inject axe-core; the app's own scripts do not need it.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    await login(page, base);

    for (const width of [1280, 390]) {
      await t.step(
        `at ${width} px the claim page shows the prize and takes an address or payout`,
        async () => {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${base}/claim/${token}`);
          await page.getByRole("heading", { name: "Claim Your Prize" }).waitFor();
          assert.match(await page.locator("[data-prize]").innerText(), /\S/);
          await screenshot(page, `payouts-claim-${width}`, { fullPage: false });
        },
      );
    }

    await t.step("a bad IBAN is refused on the field; a good one is received", async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}/claim/${token}`);
      const iban = page.getByLabel("Bank transfer (IBAN)");
      if (await iban.count()) {
        await iban.check();
        await page.getByLabel("Account holder").fill("Dana Winner");
        await page.getByLabel("IBAN", { exact: true }).fill("GB82 WEST 1234 5698 7654 33");
        await page.getByRole("button", { name: "Claim my prize" }).click();
        await page.locator("#claim-iban-error").getByText("This IBAN is not valid").waitFor();
        await page.getByLabel("IBAN", { exact: true }).fill("GB82 WEST 1234 5698 7654 32");
      } else {
        for (
          const [label, value] of [
            ["Full name", "Dana Winner"],
            ["Address", "1 High St"],
            ["City", "Leeds"],
            ["Postcode", "LS1 1AA"],
            ["Country", "UK"],
          ]
        ) {
          await page.getByLabel(label, { exact: true }).fill(value);
        }
      }
      await page.getByRole("button", { name: "Claim my prize" }).click();
      await page.locator("[data-claimed]").waitFor();
      await page.reload();
      assert.match(await page.locator("[data-claimed]").innerText(), /Claim received/);
    });

    await t.step("the Payouts screen lists owed prizes with totals", async () => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${base}/admin/payouts`);
        await page.getByRole("heading", { name: "Payouts" }).waitFor();
        assert.match(await page.locator("[data-count=owed]").innerText(), /^\d+$/);
        assert.equal(await axeViolations(page).then((v) => v.join("\n")), "");
        await screenshot(page, `payouts-admin-${width}`, { fullPage: width > 600 });
      }
    });

    await t.step("recording a payment marks it paid", async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}/admin/payouts`);
      const first = page.locator("[data-payout]").first();
      await first.getByPlaceholder("Reference").fill("PP-2026-001");
      await first.getByRole("button", { name: "Mark paid" }).click();
      await page.locator("[data-state=paid]").first().waitFor();
      const list = await (await fetch(`${base}/api/admin/payouts`, { headers: ADMIN })).json();
      assert.equal(list.payouts.filter((p: Payout) => p.state === "paid").length, 1);
    });
  } finally {
    await browser.close();
    await server.stop();
    await smtp.close();
  }
});
