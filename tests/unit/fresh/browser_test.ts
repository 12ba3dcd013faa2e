import assert from "node:assert/strict";
import { launchBrowser } from "@/tests/helpers/browser.ts";
import { classAttributes } from "$fresh/plugins/twind.ts";
import { fixtureHandler } from "./helpers.ts";

Deno.test("[fresh] islands hydrate in the browser", async (t) => {
  const handler = await fixtureHandler();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    const requests: string[] = [];
    page.on("request", (req) => requests.push(new URL(req.url()).pathname));

    await t.step("a page without islands requests no script", async () => {
      await page.goto(`${base}/`, { waitUntil: "networkidle" });
      assert.deepEqual(requests.filter((p) => p.startsWith("/_frsh/")), []);
    });

    await t.step("an island becomes interactive", async () => {
      await page.goto(`${base}/islands`, { waitUntil: "networkidle" });
      await page.click("#inc");
      assert.equal(await page.textContent("#count"), "4");
      assert.equal(await page.textContent(".echo-text"), "</script><script>alert(1)</script>");
      assert.equal(await page.textContent("frsh-children b"), "static child");
    });

    await t.step("a class only an island adds in the browser is styled", async () => {
      const html = await (await handler(new Request(`${base}/islands`))).text();
      assert.ok(
        !classAttributes(html).some((value) => value.includes("bg-red-500")),
        "the server never rendered the class",
      );
      assert.ok(!requests.some((path) => path.includes("twind")), "no style runtime loads");
      await page.waitForFunction(() => document.querySelector("#inc")?.className === "bg-red-500");
      const color = await page.$eval("#inc", (el) => getComputedStyle(el).backgroundColor);
      assert.equal(color, "rgb(239, 68, 68)");
    });

    await t.step("nested islands and islands in island children both hydrate", async () => {
      await page.goto(`${base}/nested`, { waitUntil: "networkidle" });
      const buttons = page.locator("#inc");
      await buttons.nth(0).click();
      await buttons.nth(1).click();
      await buttons.nth(1).click();
      assert.deepEqual(await page.locator("#count").allTextContents(), ["6", "9"]);
    });

    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.shutdown();
  }
});
