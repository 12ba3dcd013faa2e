import assert from "node:assert/strict";
import type { Plugin, PluginRenderContext } from "$fresh/server.ts";
import { fetchText, fixtureHandler, send } from "./helpers.ts";

function testPlugin(seen: PluginRenderContext[]): Plugin {
  const source = "export default (state) => { document.body.dataset.plugin = state; };";
  return {
    name: "probe",
    entrypoints: { main: `data:text/javascript,${encodeURIComponent(source)}` },
    render(ctx) {
      seen.push(ctx);
      const { htmlText } = ctx.render();
      const size = htmlText.length;
      return {
        styles: [{ cssText: `body{--size:${size}}`, id: "probe-style" }],
        scripts: htmlText.includes("blog new") ? [{ entrypoint: "main", state: "on" }] : [],
      };
    },
    routes: [{ path: "/plugin-page", component: () => <p id="page">from plugin</p> }],
    middlewares: [{
      path: "/",
      middleware: {
        handler: async (_req, ctx) => {
          const res = await ctx.next();
          res.headers.set("x-plugin", "probe");
          return res;
        },
      },
    }],
  };
}

Deno.test("[fresh] plugins", async (t) => {
  const seen: PluginRenderContext[] = [];
  const handler = await fixtureHandler({ plugins: [testPlugin(seen)] });

  await t.step("render hook styles are inlined in the head", async () => {
    const { text } = await fetchText(handler, "/");
    const head = text.slice(0, text.indexOf("</head>"));
    assert.match(head, /<style id="probe-style">body\{--size:\d+\}<\/style>/);
    assert.equal(seen.at(-1)?.islands.length, 0);
  });

  await t.step("render hook scripts are bundled and booted with their state", async () => {
    const { text } = await fetchText(handler, "/blog/new");
    const state = JSON.parse(text.match(/<script id="__FRSH_STATE"[^>]*>(.*?)<\/script>/s)![1]);
    assert.equal(state.plugins.length, 1);
    const [url, pluginState] = state.plugins[0];
    assert.equal(pluginState, "on");
    const chunk = await fetchText(handler, url);
    assert.equal(chunk.status, 200);
    assert.match(chunk.text, /dataset\.plugin/);
    assert.match(text, /<script type="module" src="\/_frsh\/js\//);
  });

  await t.step("the hook sees the islands on the page", async () => {
    await fetchText(handler, "/islands");
    assert.deepEqual(seen.at(-1)?.islands, ["Counter", "Echo"]);
  });

  await t.step("plugin routes and middlewares are served", async () => {
    const page = await fetchText(handler, "/plugin-page");
    assert.match(page.text, /<div id="app"><p id="page">from plugin<\/p><\/div>/);
    assert.equal(page.headers.get("x-plugin"), "probe");
    const res = await send(handler, "/hello.txt");
    assert.equal(res.headers.get("x-plugin"), "probe");
    await res.body?.cancel();
  });
});
