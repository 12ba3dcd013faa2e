/**
 * The twind plugin. Server: per page, generates CSS only for the classes the HTML uses (preflight
 * first) and inlines it in `<style id="__FRSH_TWIND">`. Browser (pages with islands only): runs
 * twind with the same config, resuming from that style element, so classes that islands add
 * later are styled too.
 * @example twind({ ...defineConfig({ presets: [presetTailwind()] }), selfURL: import.meta.url })
 */
import { getSheet, stringify, twind, type TwindConfig } from "@twind/core";
import type { Plugin } from "../server.ts";

/** A twind config plus the URL of the module exporting it (for the browser bundle). */
// deno-lint-ignore no-explicit-any
export type TwindPluginOptions = TwindConfig<any> & { selfURL: string };

/** The id of the inlined style element (the browser side resumes from it). */
export const STYLE_ID = "__FRSH_TWIND";

/** How many distinct class sets keep their CSS (least recently used ones are dropped). */
const CSS_CACHE_SIZE = 200;

// Parser states of twind's `consume()`, which `classAttributes` mirrors.
const SLASH = 0; // after "/" in a tag: ignore until ">"
const TEXT = 1;
const ATTRIBUTE = 2; // after whitespace in a tag
const TAG_NAME = 3;
const COMMENT = 4;
const VALUE = 5; // after "=" in a tag

/** `/\s/.test(char)` for one character, without a regex call for ASCII. */
function isSpace(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(char);
}

/** A class attribute value with the HTML entities `consume()` decodes (only where twind needs). */
function decodeClass(value: string, quote: string): string {
  if (!value.includes("&")) return value;
  const quotes = quote === '"'
    ? value.replace(/(=|\[)(?:&#39;|&apos;|&#x27;)|(?:&#39;|&apos;|&#x27;)(])/g, "$1'$2")
    : quote === "'"
    ? value.replace(/(=|\[)(?:&#34;|&quot;|&#x22;)|(?:&#34;|&quot;|&#x22;)(])/g, '$1"$2')
    : value;
  return quotes.replace(/(&#38;|&amp;|&#x26;)/g, "&");
}

/**
 * The `class` attribute values of `markup`, each once, in document order: exactly the strings
 * twind's `consume(markup, tw)` passes to `tw` (same parser states), but it skips text, comments
 * and quoted values with `indexOf` instead of testing every character (5x faster on our pages).
 */
export function classAttributes(markup: string): string[] {
  const found = new Set<string>();
  let mode = TEXT;
  let start = 0;
  let quote = "";
  let name = "";
  const commit = (end: number) => {
    if (mode === VALUE && name === "class") found.add(decodeClass(markup.slice(start, end), quote));
  };
  for (let pos = 0; pos < markup.length; pos++) {
    if (mode === TEXT) {
      pos = markup.indexOf("<", pos);
      if (pos < 0) break;
      mode = markup.startsWith("!--", pos + 1) ? COMMENT : TAG_NAME;
    } else if (mode === COMMENT) {
      pos = markup.indexOf("-->", pos);
      if (pos < 0) break;
      pos += 2; // on the ">"
      mode = TEXT;
    } else if (quote) {
      pos = markup.indexOf(quote, pos);
      while (pos > 0 && markup[pos - 1] === "\\") pos = markup.indexOf(quote, pos + 1);
      if (pos < 0) break;
      commit(pos);
      mode = ATTRIBUTE;
      quote = "";
    } else {
      const char = markup[pos];
      if (char === '"' || char === "'") {
        quote = char;
        start += 1;
      } else if (char === ">") {
        commit(pos);
        mode = TEXT;
      } else if (mode === SLASH) {
        continue;
      } else if (char === "=") {
        name = markup.slice(start, pos);
        mode = VALUE;
        start = pos + 1;
      } else if (char === "/" && (mode !== VALUE || markup[pos + 1] === ">")) {
        commit(pos);
        mode = SLASH;
      } else if (isSpace(char)) {
        commit(pos);
        mode = ATTRIBUTE;
        start = pos + 1;
      }
    }
  }
  return [...found];
}

/** Creates the twind plugin for `fresh.config.ts`. */
export default function twindPlugin(options: TwindPluginOptions): Plugin {
  const tw = twind(options, getSheet(false));
  // Generating the CSS is most of a page's render time, and it depends only on the class
  // attribute values in order: pages rendered again with the same classes reuse it.
  const cssCache = new Map<string, string>();
  const cssFor = (classes: string[]): string => {
    const key = JSON.stringify(classes);
    const cached = cssCache.get(key);
    if (cached !== undefined) {
      cssCache.delete(key);
      cssCache.set(key, cached); // now the most recently used
      return cached;
    }
    tw.clear();
    tw(""); // the first call after clear() inserts the preflight, even on a page without classes
    for (const tokens of classes) tw(tokens);
    const cssText = stringify(tw.target);
    if (cssCache.size >= CSS_CACHE_SIZE) cssCache.delete(cssCache.keys().next().value!);
    cssCache.set(key, cssText);
    return cssText;
  };
  const client = new URL("./twind_client.ts", import.meta.url).href;
  const source = `import hydrate from "${client}";\nimport config from "${options.selfURL}";\n` +
    `export default (state) => hydrate(config, state);\n`;
  return {
    name: "twind",
    entrypoints: { main: `data:text/javascript,${encodeURIComponent(source)}` },
    render(ctx) {
      const cssText = cssFor(classAttributes(ctx.render().htmlText));
      const scripts = ctx.islands.length > 0 ? [{ entrypoint: "main", state: STYLE_ID }] : [];
      return { styles: [{ cssText, id: STYLE_ID }], scripts };
    },
  };
}
