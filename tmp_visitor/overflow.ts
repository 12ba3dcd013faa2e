import { launchBrowser } from "../tests/helpers/browser.ts";
const browser = await launchBrowser();
const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
const page = await ctx.newPage();
await page.goto("http://127.0.0.1:8300" + Deno.args[0], { waitUntil: "networkidle" });
const out = await page.evaluate(() => {
  const res: string[] = [];
  for (const el of document.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.right > 391) res.push(`${el.tagName}.${(el.getAttribute("class") ?? "").slice(0, 80)} right=${r.right} w=${r.width}`);
  }
  return res.slice(0, 15);
});
console.log(out.join("\n"));
await page.screenshot({ path: "/tmp/shots/visitor-viewport.png" });
await browser.close();
