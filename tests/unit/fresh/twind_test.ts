import assert from "node:assert/strict";
import { fetchText, fixtureHandler } from "./helpers.ts";

function inlineCss(html: string): string {
  const css = html.match(/<style id="__FRSH_TWIND">(.*?)<\/style>/s);
  assert.ok(css, "the page has the twind style element");
  return css[1];
}

Deno.test("[fresh] twind plugin", async (t) => {
  const handler = await fixtureHandler();

  await t.step("inlines CSS for the classes the page uses, and only those", async () => {
    const css = inlineCss((await fetchText(handler, "/")).text);
    assert.match(css, /\.text-red-500\{[^}]*color:rgba\(239,68,68/);
    assert.match(css, /\.font-bold\{font-weight:700\}/);
    assert.doesNotMatch(css, /\.text-blue-700/);
    assert.doesNotMatch(css, /\.text-green-700/, "used on another page only");
  });

  await t.step("the preflight comes before the utilities", async () => {
    const css = inlineCss((await fetchText(handler, "/")).text);
    const preflight = css.indexOf("box-sizing:border-box");
    assert.ok(preflight >= 0);
    assert.ok(preflight < css.indexOf(".text-red-500"));
  });

  await t.step("a page without classes still gets the preflight", async () => {
    const css = inlineCss((await fetchText(handler, "/blog/new")).text);
    assert.match(css, /box-sizing:border-box/);
    assert.doesNotMatch(css, /\.text-red-500/);
  });

  await t.step("the CSS carries twind's resume data for the browser", async () => {
    const css = inlineCss((await fetchText(handler, "/")).text);
    assert.match(css, /\/\*![0-9a-z]+,[0-9a-z]+,text-red-500\*\/\.text-red-500/);
  });

  await t.step("the browser twind script loads only on pages with islands", async () => {
    const islands = await fetchText(handler, "/islands");
    const state = islands.text.match(
      /<script id="__FRSH_STATE" type="application\/json">(.*?)<\/script>/s,
    )!;
    const { plugins } = JSON.parse(state[1]);
    assert.equal(plugins.length, 1);
    assert.match(plugins[0][0], /\/plugin-twind_main-[A-Z0-9]+\.js$/);
    assert.deepEqual(plugins[0][1], "__FRSH_TWIND");
    assert.doesNotMatch((await fetchText(handler, "/")).text, /plugin-twind/);
  });
});
