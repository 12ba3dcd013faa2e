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
    for (let i = 0; i < n; i++) await rows.nth(i + 8).click();
  };
  await pick("GK", 1); await pick("DEF", 2); await pick("MID", 1);
  await page.click(`[data-position-filter=ALL]`);
  await page.locator("li[data-player-id]:not([hidden]) button").first().click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/visitor-builder-toast-${w}.png` });
  await ctx.close();
}
await browser.close();
