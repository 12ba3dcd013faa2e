import { seedBenchKv } from "../bench/visitor_bench.ts";
import { startServer } from "../tests/helpers/server.ts";
import { launchBrowser } from "../tests/helpers/browser.ts";
const dir = await Deno.makeTempDir();
const id = await seedBenchKv(`${dir}/b.kv`);
const server = await startServer({ env: { DENO_KV_PATH: `${dir}/b.kv`, DEMO_DATA: "0" } });
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(`${server.url}/team-selection/${id}`, { waitUntil: "networkidle" });
const QUERIES = ["p","pl","pla","play","","a","","e","","player 1","",  "t", "", "team 7", ""];
for (let round = 0; round < 3; round++) {
const out = await page.evaluate(async (queries) => {
  const input = document.querySelector<HTMLInputElement>('input[placeholder="Search players"]')!;
  const nextTask = () => new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = resolve; c.port2.postMessage(0); });
  const res: string[] = [];
  for (const q of queries) {
    await new Promise((r) => requestAnimationFrame(r));
    const t0 = performance.now();
    input.value = q;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await Promise.resolve(); await Promise.resolve();
    const t1 = performance.now();
    await nextTask();
    const t2 = performance.now();
    void document.body.offsetHeight;
    const t3 = performance.now();
    const vis = document.querySelectorAll("li[data-player-id]:not([hidden])").length;
    res.push(`${JSON.stringify(q)} vis=${vis} micro=${(t1-t0).toFixed(1)} task=${(t2-t0).toFixed(1)} layout=${(t3-t2).toFixed(1)}`);
  }
  return res;
}, QUERIES);
console.log(out.join("\n"));
}
await browser.close(); await server.stop(); await Deno.remove(dir, {recursive: true});
