/**
 * The twind plugin: per page, generates the CSS of the classes the HTML uses plus every class the
 * page's islands can add in the browser (scanned from their source files once, at start), preflight
 * first, and inlines it in `<style id="__FRSH_TWIND">`. No style runtime ships to the browser.
 * @example twind({ ...defineConfig({ presets: [presetTailwind()] }), selfURL: import.meta.url })
 */
import { getSheet, stringify, twind, type TwindConfig } from "@twind/core";
import { join } from "node:path";
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

/** Strings in source code (quoted and template literals, `${…}` cut out), for `sourceTokens`. */
const STRING_LITERAL = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g;

/**
 * Every whitespace-separated token of every string literal in `source` (holes included): a superset of the
 * classes the code can put in a `class` attribute (Tailwind's content scanning, same limits:
 * class names must appear whole in the source, never assembled from pieces).
 */
export function sourceTokens(source: string): string[] {
  const tokens = new Set<string>();
  for (const match of source.matchAll(STRING_LITERAL)) {
    let text = match[1] ?? match[2] ?? match[3];
    if (match[3] !== undefined) {
      // Strings inside `${…}` holes are class names too: `px-4 ${wide ? "py-3" : "py-1"}`.
      text = text.replace(
        /\$\{([^}]*)\}/g,
        (_, hole: string) => ` ${sourceTokens(hole).join(" ")} `,
      );
    }
    for (const token of text.split(/\s+/)) {
      if (token.length > 0 && token.length <= 120 && /^[!-~]+$/.test(token)) tokens.add(token);
    }
  }
  return [...tokens];
}

/** twind's resume comments (`/*!…*\/`): only its browser runtime reads them, and none ships. */
const RESUME_COMMENT = /\/\*![^*]*\*\//g;

/** Island name → class tokens, as `buildReady` returns it for the snapshot. */
function isTokenTable(data: unknown): data is Record<string, string[]> {
  return typeof data === "object" && data !== null &&
    Object.values(data).every((v) => Array.isArray(v) && v.every((t) => typeof t === "string"));
}

/** Creates the twind plugin for `fresh.config.ts`. */
export default function twindPlugin(options: TwindPluginOptions): Plugin {
  const tw = twind(options, getSheet(false));
  /** Island name → the class tokens its source files hold (scanned once, at `buildReady`). */
  const islandTokens = new Map<string, string[]>();
  // Generating the CSS is most of a page's render time, and it depends only on the islands and
  // the class attribute values in order: pages rendered again with the same ones reuse it.
  const cssCache = new Map<string, string>();
  const cssFor = (islands: string[], classes: string[]): string => {
    const key = JSON.stringify([islands, classes]);
    const cached = cssCache.get(key);
    if (cached !== undefined) {
      cssCache.delete(key);
      cssCache.set(key, cached); // now the most recently used
      return cached;
    }
    tw.clear();
    tw(""); // the first call after clear() inserts the preflight, even on a page without classes
    for (const tokens of classes) tw(tokens);
    // One sheet for both, so twind orders every rule (`hidden` before `md:flex`) as it would.
    for (const island of islands) islandTokens.get(island)?.forEach((token) => tw(token));
    const cssText = stringify(tw.target).replace(RESUME_COMMENT, "");
    if (cssCache.size >= CSS_CACHE_SIZE) cssCache.delete(cssCache.keys().next().value!);
    cssCache.set(key, cssText);
    return cssText;
  };
  return {
    name: "twind",
    /** Scans the islands' sources (at `dev.ts build`, or at start without a build). */
    async buildReady({ rootDir, islandInputs, data }) {
      if (isTokenTable(data)) {
        for (const [island, tokens] of Object.entries(data)) islandTokens.set(island, tokens);
        return data;
      }
      const byFile = new Map<string, Promise<string[]>>();
      const tokensOf = (file: string) => {
        if (!byFile.has(file)) {
          byFile.set(file, Deno.readTextFile(join(rootDir, file)).then(sourceTokens, () => []));
        }
        return byFile.get(file)!;
      };
      const perIsland = new Map<string, Set<string>>();
      for (const [island, files] of Object.entries(islandInputs)) {
        perIsland.set(island, new Set((await Promise.all(files.map(tokensOf))).flat()));
      }
      const classes = classTokens(new Set([...perIsland.values()].flatMap((set) => [...set])));
      for (const [island, tokens] of perIsland) {
        islandTokens.set(island, [...tokens].filter((token) => classes.has(token)));
      }
      return Object.fromEntries(islandTokens);
    },
    render(ctx) {
      const cssText = cssFor([...ctx.islands].sort(), classAttributes(ctx.render().htmlText));
      return { styles: [{ cssText, id: STYLE_ID }] };
    },
  };

  /** The tokens twind makes a rule of (most words in strings are not classes). */
  function classTokens(tokens: Set<string>): Set<string> {
    tw.clear();
    tw("");
    const rules = tw.target as string[];
    const found = new Set<string>();
    for (const token of tokens) {
      const before = rules.length;
      tw(token);
      if (rules.length > before) found.add(token);
    }
    tw.clear();
    return found;
  }
}
