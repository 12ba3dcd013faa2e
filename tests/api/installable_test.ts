import assert from "node:assert/strict";
import { makeTestApp } from "@/tests/helpers/app.ts";
import { iconSvgs } from "@/scripts/make_icons.ts";
import { svgToPng } from "@/lib/og/png.ts";

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23). */
function pngSize(bytes: Uint8Array): [number, number] {
  assert.deepEqual([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47], "a PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

Deno.test("[installable] the web app manifest, its icons, the service worker and the offline page", async (t) => {
  const app = await makeTestApp();
  try {
    await t.step("every page links the manifest", async () => {
      for (const path of ["/", "/offline", "/leaderboard/1", "/admin/login"]) {
        const html = await (await app.request(path)).text();
        assert.match(html, /<link rel="manifest" href="\/manifest.webmanifest"\/?>/, path);
      }
    });

    let icons: ManifestIcon[] = [];
    await t.step(
      "the manifest names the app, starts at / standalone, in the brand colour",
      async () => {
        const res = await app.request("/manifest.webmanifest");
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "application/manifest+json");
        const manifest = await res.json();
        assert.equal(manifest.name, "Fantasy Contests");
        assert.ok(manifest.short_name.length <= 12, "short_name fits under a home-screen icon");
        assert.equal(manifest.start_url, "/");
        assert.equal(manifest.display, "standalone");
        assert.equal(manifest.theme_color, "#16a34a");
        icons = manifest.icons;
      },
    );

    await t.step(
      "the PNG icons are served at the sizes the manifest declares, one maskable",
      async () => {
        const pngs = icons.filter((icon) => icon.type === "image/png");
        assert.deepEqual(pngs.map((icon) => icon.sizes).sort(), ["192x192", "512x512", "512x512"]);
        assert.equal(pngs.filter((icon) => icon.purpose === "maskable").length, 1);
        for (const icon of pngs) {
          const res = await app.request(icon.src);
          assert.equal(res.status, 200, icon.src);
          assert.equal(res.headers.get("content-type"), "image/png");
          const [width, height] = pngSize(new Uint8Array(await res.arrayBuffer()));
          assert.equal(`${width}x${height}`, icon.sizes, icon.src);
        }
      },
    );

    await t.step(
      "the committed icons are what scripts/make_icons.ts draws from the logo",
      async () => {
        const svgs = await iconSvgs();
        const served = icons.filter((i) => i.type === "image/png").map((i) => i.src);
        assert.deepEqual(served.sort(), Object.keys(svgs).map((name) => `/icons/${name}`).sort());
        for (const [name, svg] of Object.entries(svgs)) {
          const committed = await Deno.readFile(
            new URL(`../../static/icons/${name}`, import.meta.url),
          );
          assert.deepEqual(await svgToPng(svg), committed, `${name}: run scripts/make_icons.ts`);
        }
      },
    );

    await t.step(
      "the service worker is a script at the root scope that keeps the offline page",
      async () => {
        const res = await app.request("/sw.js");
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type") ?? "", /^text\/javascript/);
        const source = await res.text();
        assert.match(source, /const OFFLINE = "\/offline"/);
        assert.match(source, /addEventListener\("fetch"/);
      },
    );

    await t.step("the offline page answers 200 with its message", async () => {
      const res = await app.request("/offline");
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      const html = await res.text();
      assert.match(html, /<h1[^>]*>You(&#x27;|'|&apos;)re offline<\/h1>/);
    });
  } finally {
    await app.close();
  }
});
