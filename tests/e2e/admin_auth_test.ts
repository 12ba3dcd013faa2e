import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { ADMIN, expectToast } from "./admin_helpers.ts";

Deno.test("[admin] login, session cookie, logout and pages without a session", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();

    await t.step("an admin page without a session redirects to login with a toast", async () => {
      for (
        const path of ["/admin/dashboard", "/admin/matches/new", "/admin/competitions/1/events"]
      ) {
        const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
        await res.body?.cancel();
        assert.equal(res.status, 303, path);
        assert.equal(res.headers.get("location"), "/admin/login?auth=required");
      }
      await gotoHydrated(page, `${server.url}/admin/competitions/new`);
      assert.equal(new URL(page.url()).pathname, "/admin/login");
      await expectToast(
        page,
        "Authentication Required",
        "Please log in to access the admin portal",
      );
      assert.equal(await page.locator("header").count(), 0, "admin pages have no public header");
      await screenshot(page, "admin-login", { fullPage: false });
    });

    await t.step("empty fields show the agreed messages", async () => {
      await page.getByRole("button", { name: "Login" }).click();
      await page.getByText("Username is required").waitFor();
      await page.getByText("Password is required").waitFor();
    });

    await t.step("a wrong password shows 'Login Failed'", async () => {
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Login" }).click();
      await expectToast(page, "Login Failed");
      assert.equal(new URL(page.url()).pathname, "/admin/login");
    });

    await t.step("the right password opens the dashboard; nothing is kept in storage", async () => {
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL("**/admin/dashboard");
      await expectToast(page, "Login Successful", "Welcome to the admin portal");
      const stored = await page.evaluate(() =>
        JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })
      );
      assert.ok(!stored.includes(ADMIN.password), "the password is not in browser storage");
      const cookies = await context.cookies();
      assert.ok(cookies.some((c) => c.httpOnly), "the session is an HttpOnly cookie");
      await page.getByRole("table", { name: "Competitions" }).waitFor();
    });

    await t.step("the login page redirects a logged-in admin to the dashboard", async () => {
      await gotoHydrated(page, `${server.url}/admin/login`);
      assert.equal(new URL(page.url()).pathname, "/admin/dashboard");
    });

    await t.step("Logout ends the session", async () => {
      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL("**/admin/login");
      await gotoHydrated(page, `${server.url}/admin/dashboard`);
      assert.equal(new URL(page.url()).pathname, "/admin/login");
      await expectToast(page, "Authentication Required");
    });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
