import assert from "node:assert/strict";
import { consume } from "@twind/core";
import twindPlugin, { classAttributes, sourceTokens } from "$fresh/plugins/twind.ts";
import twindConfig from "@/tests/fixtures/fresh_app/twind.config.ts";
import { prng } from "@/lib/prng.ts";
import { fetchText, fixtureHandler } from "./helpers.ts";

/** What twind's own `consume()` hands to `tw`, each string once, in order. */
function consumedClasses(markup: string): string[] {
  const seen = new Set<string>();
  consume(markup, (tokens) => {
    seen.add(tokens);
    return tokens;
  });
  return [...seen];
}

/** Deterministic pseudo-random HTML-ish strings (mulberry32). */
function randomMarkup(seed: number, count: number): string[] {
  const parts = [
    '<p class="',
    "<b ",
    " class=",
    "<!--",
    "<",
    ">",
    '"',
    "'",
    "=",
    "/",
    "\\",
    " ",
    "\n",
    "\u00a0",
    "!--",
    "--",
    "-->",
    "class",
    "class=",
    'class="',
    "a",
    "b-1",
    "&amp;",
    "&#39;",
    "&quot;",
    "[",
    "]",
    "div",
    "x y",
  ];
  const next = prng(seed);
  return Array.from(
    { length: count },
    () =>
      Array.from(
        { length: 1 + Math.floor(next() * 40) },
        () => parts[Math.floor(next() * parts.length)],
      )
        .join(""),
  );
}

/** The CSS the plugin inlines for `htmlText`. */
function pluginCss(plugin: ReturnType<typeof twindPlugin>, htmlText: string): string {
  const result = plugin.render!({ render: () => ({ htmlText }), islands: [] });
  return result.styles![0].cssText;
}

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

  await t.step("the CSS has no resume data: no style runtime reads it", async () => {
    const css = inlineCss((await fetchText(handler, "/")).text);
    assert.match(css, /\.text-red-500\{/);
    assert.doesNotMatch(css, /\/\*!/);
  });

  await t.step("no page loads a style runtime", async () => {
    const islands = await fetchText(handler, "/islands");
    const state = islands.text.match(
      /<script id="__FRSH_STATE" type="application\/json">(.*?)<\/script>/s,
    )!;
    assert.deepEqual(JSON.parse(state[1]).plugins, []);
    assert.doesNotMatch(islands.text, /plugin-twind/);
  });

  await t.step(
    "a page with an island also gets the CSS of every class the island can add later",
    async () => {
      const html = (await fetchText(handler, "/islands")).text;
      assert.ok(!classAttributes(html).some((value) => value.includes("bg-red-500")));
      assert.match(inlineCss(html), /\.bg-red-500\{[^}]*background-color:rgba\(239,68,68/);
      assert.doesNotMatch(inlineCss((await fetchText(handler, "/")).text), /\.bg-red-500/);
    },
  );

  await t.step("island classes and page classes are ordered as one sheet", async () => {
    const rootDir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        `${rootDir}/Toggle.tsx`,
        'export default (p: { open: boolean }) => <p class={p.open ? "block" : "hidden"} />;',
      );
      const plugin = twindPlugin(twindConfig);
      await plugin.buildReady!({ rootDir, islandInputs: { Toggle: ["Toggle.tsx"] } });
      const render = (islands: string[]) =>
        plugin.render!({ render: () => ({ htmlText: '<p class="md:flex">a</p>' }), islands })
          .styles![0].cssText;
      const css = render(["Toggle"]);
      assert.ok(css.indexOf(".hidden{") >= 0 && css.indexOf(".block{") >= 0);
      assert.ok(css.indexOf(".hidden{") < css.indexOf(".md\\:flex{"), "md:flex wins over hidden");
      assert.doesNotMatch(render([]), /\.hidden\{/);
    } finally {
      await Deno.remove(rootDir, { recursive: true });
    }
  });

  await t.step("CSS reused for a repeated class set still follows each page's classes", () => {
    const plugin = twindPlugin(twindConfig);
    const red = '<p class="text-red-500">a</p><b class="font-bold">b</b>';
    const blue = '<p class="text-blue-700">a</p><b class="font-bold">b</b>';
    const first = pluginCss(plugin, red);
    assert.match(pluginCss(plugin, blue), /\.text-blue-700\{/);
    assert.doesNotMatch(pluginCss(plugin, blue), /\.text-red-500/);
    assert.equal(pluginCss(plugin, red), first);
    assert.equal(
      pluginCss(plugin, '<i class="font-bold">x</i><p class="text-red-500">y</p>'),
      pluginCss(
        twindPlugin(twindConfig),
        '<i class="font-bold">x</i><p class="text-red-500">y</p>',
      ),
    );
  });

  await t.step(
    "classAttributes reads exactly the class values twind's consume() reads",
    async () => {
      const pages = await Promise.all(
        ["/", "/islands", "/blog/new", "/nowhere"].map(async (path) =>
          (await fetchText(handler, path)).text
        ),
      );
      const edgeCases = [
        '<div class="a b"><!-- <p class="hidden"> --><i class=\'c\'>x</i><b class=d>y</b></div>',
        '<a class="x\\"y" class = "z"><br/><img class="w"/><p title="a>b" class="[&amp;>svg]:w-4">',
        "<p class=\"before:content-[&#39;x&#39;]\"></p><p class='a [&quot;b&quot;]'></p><!-->",
        '<p class="unterminated',
        '<p\u00a0class="nbsp">text class="not-an-attribute"</p>',
      ];
      for (const markup of [...pages, ...edgeCases, ...randomMarkup(7, 3000)]) {
        assert.deepEqual(classAttributes(markup), consumedClasses(markup), markup.slice(0, 200));
      }
    },
  );
});

Deno.test("[fresh] sourceTokens finds every class a source file can produce", () => {
  const source = `
    const ROW = "flex items-center gap-2";
    const badge = 'rounded-full bg-primary/10';
    const cell = \`px-4 \${wide ? "py-3" : "py-1"} text-[13px]\`;
    // a comment with "quoted words" and a ' lone apostrophe
    <div class="hover:bg-accent md:grid-cols-[1fr_2fr]" />`;
  const tokens = sourceTokens(source);
  for (
    const token of [
      "flex",
      "items-center",
      "gap-2",
      "rounded-full",
      "bg-primary/10",
      "px-4",
      "py-3",
      "py-1",
      "text-[13px]",
      "hover:bg-accent",
      "md:grid-cols-[1fr_2fr]",
    ]
  ) {
    assert.ok(tokens.includes(token), token);
  }
  assert.ok(!tokens.some((token) => token.includes("${")), "template holes are cut out");
});
