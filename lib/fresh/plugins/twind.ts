/**
 * The twind plugin. Server: per page, generates CSS only for the classes the HTML uses (preflight
 * first) and inlines it in `<style id="__FRSH_TWIND">`. Browser (pages with islands only): runs
 * twind with the same config, resuming from that style element, so classes that islands add
 * later are styled too.
 * @example twind({ ...defineConfig({ presets: [presetTailwind()] }), selfURL: import.meta.url })
 */
import { consume, getSheet, stringify, twind, type TwindConfig } from "@twind/core";
import type { Plugin } from "../server.ts";

/** A twind config plus the URL of the module exporting it (for the browser bundle). */
// deno-lint-ignore no-explicit-any
export type TwindPluginOptions = TwindConfig<any> & { selfURL: string };

/** The id of the inlined style element (the browser side resumes from it). */
export const STYLE_ID = "__FRSH_TWIND";

/** How many distinct class sets keep their CSS (least recently used ones are dropped). */
const CSS_CACHE_SIZE = 200;

/** The page's `class` attribute values, each once, in document order (as twind reads them). */
function classAttributes(htmlText: string): string[] {
  const seen = new Set<string>();
  consume(htmlText, (tokens) => {
    seen.add(tokens);
    return tokens;
  });
  return [...seen];
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
