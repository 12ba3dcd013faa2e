import assert from "node:assert/strict";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import type { BrowserContext, Page } from "playwright-core";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import {
  startTestProvider,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
} from "@/tests/helpers/oidc_provider.ts";
import { freePort, startServer } from "@/tests/helpers/server.ts";
import { codeAt, wrongCode } from "@/tests/helpers/totp.ts";
import { ADMIN, expectToast } from "./admin_helpers.ts";

/**
 * The app runs at http://localhost:<port> and the provider at http://127.0.0.1:<port>: two sites,
 * so the sign-in crosses sites as it does with a real provider (SameSite cookies matter).
 */
Deno.test("[admin] sign-in through an OpenID Connect provider in Chromium", async (t) => {
  const providerPort = freePort();
  const server = await startServer({
    env: {
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: TEST_CLIENT_ID,
      OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
      OIDC_ADMIN_EMAILS: "boss@example.com",
      OIDC_PROVIDER_NAME: "Test IdP",
    },
  });
  const appUrl = server.url.replace("127.0.0.1", "localhost");
  const provider = await startTestProvider([`${appUrl}/admin/oauth/callback`], providerPort);
  const browser = await launchBrowser();
  try {
    await t.step("an allowed admin lands on the dashboard with the session cookie", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInAtProvider(page, appUrl, "boss@example.com");
      await page.waitForURL(`${appUrl}/admin/dashboard`);
      await page.getByRole("heading", { name: "Competitions Dashboard" }).waitFor();
      const session = await sessionCookie(context);
      assert.ok(session, "the admin session cookie is set");
      assert.equal(session.httpOnly, true);
      assert.equal(session.sameSite, "Strict");
      const answer = await page.evaluate(async () => (await fetch("/api/admin/session")).json());
      assert.deepEqual(answer, { username: "boss@example.com" });
      await screenshot(page, "admin-oidc-dashboard", { fullPage: false });
      await context.close();
    });

    await t.step("an e-mail that is not allowed sees the refusal and gets no session", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInAtProvider(page, appUrl, "stranger@example.com");
      await page.getByRole("heading", { name: "Sign-in Refused" }).waitFor();
      await page.getByText("stranger@example.com is not allowed to administer this site.")
        .waitFor();
      await screenshot(page, "admin-oidc-refused", { fullPage: false });
      assert.equal(await sessionCookie(context), undefined);
      await gotoHydrated(page, `${appUrl}/admin/dashboard`);
      assert.equal(new URL(page.url()).pathname, "/admin/login");
      await context.close();
    });
  } finally {
    await browser.close();
    await provider.close();
    await server.stop();
  }
});

Deno.test("[admin] a TOTP second factor: set up in the portal, then asked at login", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    let secret: Uint8Array = new Uint8Array();
    let recoveryCodes: string[] = [];
    let usedCode = "";

    await t.step("the login page has no provider button without OIDC settings", async () => {
      await gotoHydrated(page, `${server.url}/admin/login`);
      assert.equal(await page.getByText(/Sign in with/).count(), 0);
    });

    await t.step("set-up shows a QR code, then recovery codes after a first code", async () => {
      await passwordLogin(page);
      await page.waitForURL("**/admin/dashboard");
      await page.getByRole("link", { name: "Two-Factor" }).click();
      await page.waitForURL("**/admin/2fa");
      await page.getByText("Two-factor authentication is off.").waitFor();
      await page.getByRole("button", { name: "Set up authenticator" }).click();
      const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
      await qr.waitFor();
      assert.match(await qr.getAttribute("src") ?? "", /^data:image\/svg\+xml;base64,/);
      secret = decodeBase32IgnorePadding(await page.getByTestId("totp-secret").innerText());
      await page.getByLabel("Code from the app").fill(wrongCode(secret));
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByText("That code is not right. Enter the current code.").waitFor();
      await page.getByLabel("Code from the app").fill(codeAt(secret));
      await page.getByRole("button", { name: "Confirm" }).click();
      const list = page.getByRole("list", { name: "Recovery codes" });
      await list.waitFor();
      recoveryCodes = await list.getByRole("listitem").allInnerTexts();
      assert.equal(recoveryCodes.length, 10);
      await screenshot(page, "admin-2fa-recovery-codes", { fullPage: false });
    });

    await t.step("logout, then the password login asks for the code", async () => {
      await page.getByRole("link", { name: "Continue to the dashboard" }).click();
      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL("**/admin/login");
      await passwordLogin(page);
      const code = page.getByLabel("Authentication code");
      await code.waitFor();
      assert.equal(new URL(page.url()).pathname, "/admin/login");
      usedCode = codeAt(secret, 1); // the step after the one used to confirm
      await code.fill(usedCode);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL("**/admin/dashboard");
      await expectToast(page, "Login Successful");
    });

    await t.step("the same code again is refused; a recovery code works once", async () => {
      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL("**/admin/login");
      await passwordLogin(page);
      await page.getByLabel("Authentication code").fill(usedCode);
      await page.getByRole("button", { name: "Login" }).click();
      await expectToast(page, "Login Failed", "Invalid authentication code");
      await page.getByLabel("Authentication code").fill(recoveryCodes[0]);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL("**/admin/dashboard");
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});

async function passwordLogin(page: Page): Promise<void> {
  if (!page.url().endsWith("/admin/login")) {
    await gotoHydrated(page, page.url().replace(/\/admin\/.*$/, "/admin/login"));
  }
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** Clicks 'Sign in with Test IdP' and logs in on the provider's own page as `email`. */
async function signInAtProvider(page: Page, appUrl: string, email: string): Promise<void> {
  await gotoHydrated(page, `${appUrl}/admin/login`);
  await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === "admin_session");
}
