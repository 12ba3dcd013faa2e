import { launchBrowser } from "../tests/helpers/browser.ts";
const url = Deno.args[0];
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(url, { waitUntil: "networkidle" });
const QUERIES = ["p","pl","pla","play","","a","","e","","player 1","",  "t", "", "team 7", ""];
for (let round = 0; round < 2; round++) {
const out = await page.evaluate(async (queries) => {
  const input = document.querySelector<HTMLInputElement>('input[placeholder="Search players"]')!;
  const res: string[] = [];
  for (const q of queries) {
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    input.value = q;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await Promise.resolve(); await Promise.resolve();
    const t1 = performance.now();
    await new Promise((r) => setTimeout(r, 0));
    const t2 = performance.now();
    void document.body.offsetHeight;
    const t3 = performance.now();
    const vis = document.querySelectorAll("li[data-player-id]:not([hidden])").length;
    res.push(`${JSON.stringify(q)} vis=${vis} micro=${(t1-t0).toFixed(1)} toTimeout=${(t2-t0).toFixed(1)} layout=${(t3-t2).toFixed(1)}`);
  }
  return res;
}, QUERIES);
console.log(out.join("\n"));
}
await browser.close();
