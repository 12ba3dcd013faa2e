import assert from "node:assert/strict";
import { fetchText, fixtureHandler } from "./helpers.ts";
import { EVIL } from "@/tests/fixtures/fresh_app/routes/islands.tsx";

type IslandState = [string, Record<string, unknown>, boolean];

function pageState(html: string): { buildId: string; islands: IslandState[] } {
  const json = html.match(/<script id="__FRSH_STATE" type="application\/json">(.*?)<\/script>/s);
  assert.ok(json, "the page has a state script");
  return JSON.parse(json[1]);
}

Deno.test("[fresh] islands", async (t) => {
  const handler = await fixtureHandler();

  await t.step("a page without islands ships no script", async () => {
    const { text } = await fetchText(handler, "/");
    assert.doesNotMatch(text, /<script/i);
    assert.doesNotMatch(text, /modulepreload/);
  });

  await t.step("islands render between markers, with JSON props", async () => {
    const { text } = await fetchText(handler, "/islands");
    assert.match(
      text,
      /<!--frsh-Counter:0--><div><span id="count">3<\/span><button type="button" id="inc">\+1<\/button><\/div><!--\/frsh-Counter:0-->/,
    );
    assert.match(text, /<!--frsh-Echo:1--><section data-browser="false">/);
    const state = pageState(text);
    assert.deepEqual(state.islands.map(([name, props]) => [name, props]), [
      ["Counter", { start: 3 }],
      ["Echo", { text: EVIL, extra: "\u2028&<>" }],
    ]);
    assert.match(
      text,
      /<script type="module" src="\/_frsh\/js\/[0-9a-f]+\/page-islands-[A-Z0-9]+\.js"><\/script>/,
    );
  });

  await t.step("a prop containing </script> cannot break out of the page", async () => {
    const { text } = await fetchText(handler, "/islands");
    assert.ok(!text.includes(EVIL), "the raw string never appears");
    assert.ok(!text.includes("<script>alert(1)"), "no injected script tag");
    const stateScript = text.match(/<script id="__FRSH_STATE"[^>]*>(.*?)<\/script>/s)![1];
    assert.doesNotMatch(stateScript, /[<>&\u2028\u2029]/);
    assert.equal(text.match(/<script/g)?.length, 2, "only the state and boot scripts");
  });

  await t.step("the boot state lists only the islands on the page", async () => {
    const { text } = await fetchText(handler, "/one");
    const state = pageState(text);
    assert.deepEqual(state.islands.map(([name]) => name), ["Counter"]);
    assert.deepEqual(state.islands[0], ["Counter", { start: 1 }, false]);
  });

  await t.step("a page loads one entry, the smallest that boots all its islands", async () => {
    const entries = async (path: string) =>
      [...(await fetchText(handler, path)).text.matchAll(/<script type="module" src="([^"]+)">/g)]
        .map(([, src]) => src.split("/").pop()!.replace(/-[A-Z0-9]+\.js$/, ""));
    assert.deepEqual(await entries("/one"), ["page-one"]);
    assert.deepEqual(await entries("/islands"), ["page-islands"]);
    assert.deepEqual(await entries("/nested"), ["page-nested"]);
  });

  await t.step("an island renders other components and islands inline", async () => {
    const { text } = await fetchText(handler, "/nested");
    assert.match(
      text,
      /<!--frsh-Outer:0--><div class="outer"><div><span id="count">5<\/span>.*?<\/div><\/div><!--\/frsh-Outer:0-->/,
    );
    const state = pageState(text);
    assert.deepEqual(state.islands.map(([name, props, children]) => [name, props, children]), [
      ["Outer", {}, false],
      ["Echo", { text: "with island child", extra: "" }, true],
      ["Counter", { start: 7 }, false],
    ]);
  });

  await t.step(
    "JSX children of an island render statically; islands in them are marked",
    async () => {
      const { text } = await fetchText(handler, "/nested");
      assert.match(
        text,
        /<frsh-children data-frsh="1" style="display:contents"><!--frsh-Counter:2--><div><span id="count">7<\/span>/,
      );
      const islands = await fetchText(handler, "/islands");
      assert.match(
        islands.text,
        /<frsh-children data-frsh="1" style="display:contents"><b class="text-green-700">static child<\/b><\/frsh-children>/,
      );
    },
  );

  await t.step("IS_BROWSER is false on the server", async () => {
    const { text } = await fetchText(handler, "/islands");
    assert.match(text, /data-browser="false"/);
  });

  await t.step("<Head> children go into the document head", async () => {
    const { text } = await fetchText(handler, "/");
    assert.match(text, /<head>.*<meta name="description" content="fixture home"\/>.*<\/head>/s);
    assert.match(text, /<title>Fixture<\/title>/);
  });

  await t.step("a <Head> title replaces the app's title", async () => {
    const { text } = await fetchText(handler, "/data?name=Bo");
    assert.equal(text.match(/<title>/g)?.length, 1);
    assert.match(text, /<title>Data for Bo<\/title>/);
  });
});
