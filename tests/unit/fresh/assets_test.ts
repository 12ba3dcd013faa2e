import assert from "node:assert/strict";
import { asset } from "$fresh/runtime.ts";
import { fetchText, fixtureHandler, send } from "./helpers.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

function bootUrl(html: string): string {
  return html.match(/<script type="module" src="([^"]+)"><\/script>/)![1];
}

Deno.test("[fresh] assets and static files", async (t) => {
  const handler = await fixtureHandler();
  const page = await fetchText(handler, "/islands");
  const buildId = JSON.parse(
    page.text.match(/<script id="__FRSH_STATE" type="application\/json">(.*?)<\/script>/s)![1],
  ).buildId as string;

  await t.step(
    "bundled chunks are served under /_frsh/js/<BUILD_ID>/ with immutable caching",
    async () => {
      const url = bootUrl(page.text);
      assert.ok(url.startsWith(`/_frsh/js/${buildId}/`));
      const res = await fetchText(handler, url);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/javascript");
      assert.equal(res.headers.get("cache-control"), IMMUTABLE);
      assert.match(res.text, /^import\{/, "an ES module importing the shared chunks");
      assert.equal(res.headers.get("x-destination"), "internal");
    },
  );

  await t.step("every modulepreload link resolves", async () => {
    const links = [...page.text.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)];
    assert.ok(links.length >= 2);
    for (const [, href] of links) {
      const res = await send(handler, href);
      assert.equal(res.status, 200, href);
      await res.body?.cancel();
    }
  });

  await t.step("a stale BUILD_ID or unknown file answers 404", async () => {
    const file = bootUrl(page.text).split("/").pop();
    for (const path of [`/_frsh/js/stale/${file}`, `/_frsh/js/${buildId}/nope.js`]) {
      const res = await send(handler, path);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    }
  });

  await t.step(
    "static files have a content type and an ETag; If-None-Match gives 304",
    async () => {
      const res = await fetchText(handler, "/hello.txt");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/plain; charset=utf-8");
      assert.equal(res.text, "hello static\n");
      const etag = res.headers.get("etag");
      assert.match(etag ?? "", /^"[0-9a-f]+"$/);
      assert.equal(res.headers.get("x-destination"), "static");
      const again = await send(handler, "/hello.txt", { headers: { "if-none-match": etag! } });
      assert.equal(again.status, 304);
      assert.equal(again.body, null);
      assert.equal(again.headers.get("etag"), etag);
      const other = await send(handler, "/hello.txt", { headers: { "if-none-match": '"other"' } });
      assert.equal(other.status, 200);
      await other.body?.cancel();
    },
  );

  await t.step("HEAD on a static file has headers and no body", async () => {
    const res = await send(handler, "/hello.txt", { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-length"), "13");
    assert.equal(res.body, null);
  });

  await t.step("asset() adds the BUILD_ID; such URLs are cached immutably", async () => {
    assert.match(page.text, new RegExp(`<img src="/logo.svg\\?__frsh_c=${buildId}"`));
    const busted = await send(handler, `/logo.svg?__frsh_c=${buildId}`);
    assert.equal(busted.headers.get("cache-control"), IMMUTABLE);
    assert.equal(busted.headers.get("content-type"), "image/svg+xml");
    await busted.body?.cancel();
    const plain = await send(handler, "/logo.svg");
    assert.equal(plain.headers.get("cache-control"), null);
    await plain.body?.cancel();
  });

  await t.step("asset() leaves external and relative URLs alone", () => {
    assert.equal(asset("https://example.com/a.png"), "https://example.com/a.png");
    assert.equal(asset("//cdn.example.com/a.png"), "//cdn.example.com/a.png");
    assert.equal(asset("a.png"), "a.png");
    assert.match(asset("/a.png?x=1#top"), /^\/a\.png\?x=1&__frsh_c=[0-9a-f]+#top$/);
  });

  await t.step("no live-reload endpoints outside dev mode", async () => {
    for (const path of ["/_frsh/alive", "/_frsh/refresh.js"]) {
      const res = await send(handler, path);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    }
    assert.doesNotMatch(page.text, /refresh\.js/);
  });
});

Deno.test("[fresh] dev mode: no-cache and live reload", async (t) => {
  const handler = await fixtureHandler({ dev: true });

  await t.step("pages without islands carry only the live-reload script", async () => {
    const res = await fetchText(handler, "/");
    assert.equal(res.headers.get("cache-control"), "no-cache");
    const scripts = [...res.text.matchAll(/<script[^>]*>/g)].map(([tag]) => tag);
    assert.equal(scripts.length, 1);
    assert.match(scripts[0], /^<script src="\/_frsh\/refresh.js" data-build-id="[0-9a-f]{32}">$/);
  });

  await t.step("bundles are not cached immutably in dev", async () => {
    const page = await fetchText(handler, "/islands");
    const res = await send(handler, bootUrl(page.text));
    assert.equal(res.headers.get("cache-control"), "no-cache");
    await res.body?.cancel();
    const file = await send(handler, "/hello.txt?__frsh_c=x");
    assert.equal(file.headers.get("cache-control"), "no-cache");
    await file.body?.cancel();
  });

  await t.step(
    "/_frsh/alive streams the BUILD_ID so a restarted server triggers a reload",
    async () => {
      const page = await fetchText(handler, "/");
      const id = page.text.match(/data-build-id="([0-9a-f]+)"/)![1];
      const res = await send(handler, "/_frsh/alive");
      assert.equal(res.headers.get("content-type"), "text/event-stream");
      const reader = res.body!.getReader();
      const { value } = await reader.read();
      assert.equal(new TextDecoder().decode(value), `retry: 500\ndata: ${id}\n\n`);
      await reader.cancel();
      const script = await fetchText(handler, "/_frsh/refresh.js");
      assert.match(script.text, /new EventSource\("\/_frsh\/alive"\)/);
      assert.match(script.text, /location\.reload\(\)/);
    },
  );
});
