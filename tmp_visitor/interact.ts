import { launchBrowser } from "../tests/helpers/browser.ts";
const browser = await launchBrowser();
for (const [w, h] of [[1280, 800], [390, 844]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.log("[pageerror]", e.message));
  page.on("console", (m) => m.type() === "error" && console.log("[console]", m.text()));
  await page.goto("http://127.0.0.1:8300/team-selection/2", { waitUntil: "networkidle" });
  const pick = async (pos: string, n: number) => {
    await page.click(`[data-position-filter=${pos}]`);
    const rows = page.locator("li[data-player-id]:not([hidden]) button");
    const c = await rows.count(); console.log(pos, c); for (let i = 0; i < n; i++) await rows.nth(c - 1 - i).click();
  };
  await pick("GK", 1); await pick("DEF", 2); await pick("MID", 1);
  await page.click(`[data-position-filter=ALL]`);
  await page.locator("li[data-player-id]:not([hidden]) button").first().click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/visitor-builder-toast-${w}.png` });
  await ctx.close();
}
{
  const ctx = await browser.newContext({ viewport: { width: Number(Deno.env.get("W") ?? 1280), height: 900 } });
  const page = await ctx.newPage();
  page.on("pageerror", (e) => console.log("[pageerror]", e.message));
  page.on("console", (m) => m.type() === "error" && console.log("[console]", m.text()));
  await page.goto("http://127.0.0.1:8300/team-selection/2", { waitUntil: "networkidle" });
  for (const [pos, n] of [["GK", 1], ["DEF", 2], ["MID", 1], ["FWD", 1]] as const) {
    await page.click(`[data-position-filter=${pos}]`);
    const rows = page.locator("li[data-player-id]:not([hidden]) button");
    const c = await rows.count();
    for (let i = 0; i < n; i++) await rows.nth(c - 1 - i).click();
  }
  await page.click("text=Submit Team (5/5)");
  await page.waitForURL("**/payment/2");
  await page.waitForSelector("form");
  await page.screenshot({ path: `/tmp/shots/visitor-payment-info.png`, fullPage: true });
  await page.click("text=Proceed to Payment: $10.00");
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/visitor-payment-errors.png`, fullPage: true });
  await page.fill("#checkout-teamName", "Tester FC");
  await page.fill("#checkout-email", "t@example.com");
  await page.fill("#checkout-confirmEmail", "t@example.com");
  await page.click("text=Proceed to Payment: $10.00");
  await page.waitForSelector("[data-test-card-form]");
  await page.fill("#test-card-number", "4000000000000002");
  await page.click("text=Pay and Submit Entry: $10.00");
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots/visitor-payment-declined.png`, fullPage: true });
  await page.fill("#test-card-number", "4242424242424242");
  await page.click("text=Pay and Submit Entry: $10.00");
  await page.waitForURL("**/confirmation/**");
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/visitor-confirmation.png`, fullPage: true });
  console.log(page.url(), await page.evaluate(() => localStorage.getItem("userEntries")));
  await ctx.close();
}
await browser.close();
