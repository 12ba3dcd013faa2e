import { launchBrowser } from "../tests/helpers/browser.ts";
const base = Deno.args[0] ?? "http://127.0.0.1:8300";
const pages = (Deno.args[1] ?? "/").split(",");
const browser = await launchBrowser();
for (const [w, h] of [[1280, 800], [390, 844]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  page.on("console", (m) => console.log(`[console ${m.type()}]`, m.text()));
  page.on("pageerror", (e) => console.log("[pageerror]", e.message));
  for (const p of pages) {
    await page.goto(base + p, { waitUntil: "networkidle" });
    await page.waitForTimeout(500);
    const name = p.replace(/\W+/g, "_") || "home";
    await page.screenshot({ path: `/tmp/shots/visitor-${name}-${w}.png`, fullPage: Deno.args[2] === "full" });
    const sw = await page.evaluate(() => document.documentElement.scrollWidth);
    console.log(p, w, "scrollWidth", sw);
  }
  await ctx.close();
}
await browser.close();
