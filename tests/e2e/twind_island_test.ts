import assert from "node:assert/strict";
import { gotoHydrated, launchBrowser, screenshot } from "@/tests/helpers/browser.ts";
import { startServer } from "@/tests/helpers/server.ts";
import { classAttributes } from "@/lib/fresh/plugins/twind.ts";

Deno.test("[e2e] classes that only an island adds in the browser are styled", async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const html = await (await fetch(`${server.url}/`)).text();
    const serverCss = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1])
      .join("\n");
    assert.ok(serverCss.length > 0, "the server inlines the page's CSS");
    assert.ok(
      !classAttributes(html).some((value) => value.includes("bg-black/60")),
      "the dialog backdrop class is not in the server-rendered markup: only the island adds it",
    );
    assert.ok(serverCss.includes("bg-black\\/60"), "its CSS was compiled ahead of time");
    assert.doesNotMatch(html, /plugin-twind/, "no style runtime ships to the browser");

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await gotoHydrated(page, `${server.url}/`);
    await page.getByRole("button", { name: "Rules", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Fantasy Rules" });
    await dialog.waitFor();

    const styles = await page.evaluate(() => {
      const backdrop = document.querySelector("[data-dialog-backdrop]")!;
      const panel = document.querySelector("[role=dialog]")!;
      const gotIt = [...panel.querySelectorAll("button")].find((b) => b.textContent === "Got it")!;
      return {
        backdrop: getComputedStyle(backdrop).backgroundColor,
        backdropPosition: getComputedStyle(backdrop).position,
        panelMaxWidth: getComputedStyle(panel).maxWidth,
        panelRadius: getComputedStyle(panel).borderTopLeftRadius,
        gotIt: getComputedStyle(gotIt).backgroundColor,
        gotItColor: getComputedStyle(gotIt).color,
      };
    });
    assert.equal(styles.backdrop, "rgba(0, 0, 0, 0.6)");
    assert.equal(styles.backdropPosition, "fixed");
    assert.equal(styles.panelMaxWidth, "512px");
    assert.equal(styles.panelRadius, "12px");
    assert.notEqual(styles.gotIt, "rgba(0, 0, 0, 0)", "the primary button keeps its colour");
    assert.notEqual(styles.gotIt, styles.gotItColor, "button text contrasts with its fill");
    await screenshot(page, "rules-dialog-desktop", { fullPage: false });
  } finally {
    await browser.close();
    await server.stop();
  }
});
