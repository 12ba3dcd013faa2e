import { launchBrowser } from "../tests/helpers/browser.ts";
const browser = await launchBrowser();
const page = await browser.newPage();
page.on("request", (req) => {
  if (!req.url().endsWith("/api/analytics")) return;
  console.log("req", req.resourceType(), req.postData(), req.postDataBuffer()?.length, req.headers()["content-type"]);
});
await page.goto("http://127.0.0.1:8300/", { waitUntil: "networkidle" });
await browser.close();
