/**
 * Server rendering: composes page, layouts and `_app`, renders them to HTML with
 * preact-render-to-string, marks islands (via preact's public `options.vnode` hook), runs the
 * plugin render hooks and assembles the final document.
 */
import {
  type ComponentChildren,
  type ComponentType,
  Fragment,
  h,
  options,
  type VNode,
} from "preact";
import { renderToString } from "preact-render-to-string";
import { HeadContext, setBuildId } from "./shared.ts";
import type {
  AsyncComponent,
  FreshContext,
  PageProps,
  Plugin,
  PluginRenderResult,
  PluginRenderStyleTag,
} from "./types.ts";

/** An island known to the renderer. */
export interface IslandInfo {
  name: string;
  // deno-lint-ignore no-explicit-any
  component: ComponentType<any>;
}

/** One island occurrence on a rendered page. */
interface IslandUse {
  name: string;
  props: Record<string, unknown>;
  hasChildren: boolean;
}

/** Per-render state; rendering is synchronous, so one global slot is enough. */
interface RenderState {
  islands: IslandUse[];
  /** > 0 while rendering inside an island: nested islands hydrate with their parent. */
  depth: number;
}

let current: RenderState | null = null;
// deno-lint-ignore no-explicit-any
const wrappers = new Map<ComponentType<any>, ComponentType<any>>();

/** Registers island components so the renderer marks them; call once per manifest. */
export function registerIslands(islands: IslandInfo[]): void {
  for (const island of islands) {
    if (!wrappers.has(island.component)) {
      wrappers.set(island.component, makeIslandWrapper(island));
    }
  }
}

const previousVnodeHook = options.vnode;
options.vnode = (vnode) => {
  // deno-lint-ignore no-explicit-any
  const wrapper = wrappers.get(vnode.type as ComponentType<any>);
  if (wrapper) vnode.type = wrapper;
  previousVnodeHook?.(vnode);
};

/** Changes the island depth while rendering; emits nothing. */
function Depth(props: { by: number }): null {
  if (current) current.depth += props.by;
  return null;
}

function comment(text: string): VNode {
  return h(Fragment, { UNSTABLE_comment: text } as Record<string, unknown>);
}

/** A vnode of `type` that bypasses the vnode hook (which would wrap the island again). */
// deno-lint-ignore no-explicit-any
function rawVNode(type: ComponentType<any>, props: Record<string, unknown>): VNode {
  const vnode = h(Fragment, props);
  // deno-lint-ignore no-explicit-any
  (vnode as any).type = type;
  return vnode;
}

// deno-lint-ignore no-explicit-any
function makeIslandWrapper(island: IslandInfo): ComponentType<any> {
  function IslandMarker(props: Record<string, unknown>): VNode {
    const state = current;
    if (!state || state.depth > 0) return rawVNode(island.component, props);
    const { children, ...rest } = props;
    const index = state.islands.length;
    const hasChildren = children !== undefined;
    state.islands.push({ name: island.name, props: rest, hasChildren });
    const islandProps = hasChildren ? { ...rest, children: slot(index, children) } : rest;
    const marker = `frsh-${island.name}:${index}`;
    return h(
      Fragment,
      null,
      comment(marker),
      h(Depth, { by: 1 }),
      rawVNode(island.component, islandProps),
      h(Depth, { by: -1 }),
      comment(`/${marker}`),
    );
  }
  IslandMarker.displayName = `Island(${island.name})`;
  return IslandMarker;
}

/** JSX children of an island: rendered statically, islands inside them get their own markers. */
function slot(index: number, children: unknown): VNode {
  return h<Record<string, unknown>>(
    "frsh-children",
    { "data-frsh": String(index), style: "display:contents" },
    h(Depth, { by: -1 }),
    children as ComponentChildren,
    h(Depth, { by: 1 }),
  );
}

/** Escapes JSON so it can sit inside a `<script>` element without ending it. */
export function escapeJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

function escapeAttr(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

const ASYNC = Symbol.for("fresh.asyncComponent");

/** Marks a component as taking `(req, ctx)` (used by defineRoute/defineLayout/defineApp). */
export function markAsync<T extends object>(fn: T): T {
  Object.defineProperty(fn, ASYNC, { value: true });
  return fn;
}

function isAsyncComponent(fn: unknown): fn is AsyncComponent {
  if (typeof fn !== "function") return false;
  return ASYNC in fn || fn.constructor.name === "AsyncFunction";
}

/** Browser assets of a build, as the renderer needs them. */
export interface ClientAssets {
  buildId: string;
  /**
   * Page entries (each boots its islands), fewest islands first. A page loads the first that
   * has every island it renders, or else a few that have them between them.
   */
  groups: { islands: string[]; url: string }[];
  /** Plugin entrypoint name → chunk URL. */
  entrypoints: Record<string, string>;
  /** Chunk URL → URLs of chunks it imports (for modulepreload). */
  deps: Record<string, string[]>;
}

/** Everything needed to render one page. */
export interface RenderRequest {
  req: Request;
  ctx: FreshContext;
  // deno-lint-ignore no-explicit-any
  page: ComponentType<any> | AsyncComponent<any, any>;
  /** Wrappers from the outermost (`_app`) to the innermost layout. */
  // deno-lint-ignore no-explicit-any
  wrappers: (ComponentType<any> | AsyncComponent<any, any>)[];
  data: unknown;
  error?: unknown;
  plugins: Plugin[];
  assets: ClientAssets;
  dev: boolean;
}

/** Renders a page to a complete HTML document, or returns the Response an async component gave. */
export async function renderPage(r: RenderRequest): Promise<string | Response> {
  setBuildId(r.assets.buildId); // for asset(); several handlers may share a process (tests)
  const props: PageProps = {
    url: r.ctx.url,
    params: r.ctx.params,
    data: r.data,
    state: r.ctx.state,
    route: r.ctx.route,
  };
  if (r.error !== undefined) props.error = r.error;
  const ctx = { ...r.ctx, data: r.data, error: r.error };

  let inner = await renderComponent(r.page, { ...props }, r.req, ctx);
  if (inner instanceof Response) return inner;
  for (const wrapper of [...r.wrappers].reverse()) {
    const child: VNode | null = inner;
    const Component = () => child;
    inner = await renderComponent(wrapper, { ...props, Component }, r.req, { ...ctx, Component });
    if (inner instanceof Response) return inner;
  }

  const head: ComponentChildren[] = [];
  const state: RenderState = { islands: [], depth: 0 };
  const body = renderSync(state, h(HeadContext.Provider, { value: head }, inner) as VNode);
  const headHtml = renderSync(state, h(Fragment, null, ...(head as VNode[])));
  const pluginResults = await runPlugins(r.plugins, body, state.islands);
  return assemble(body, headHtml, state.islands, pluginResults, r.assets, r.dev);
}

function renderSync(state: RenderState, vnode: VNode): string {
  current = state;
  try {
    return renderToString(vnode);
  } finally {
    current = null;
  }
}

async function renderComponent(
  // deno-lint-ignore no-explicit-any
  component: ComponentType<any> | AsyncComponent<any, any>,
  props: Record<string, unknown>,
  req: Request,
  ctx: FreshContext,
): Promise<VNode | Response | null> {
  if (isAsyncComponent(component)) return await component(req, ctx);
  return h(component as ComponentType<Record<string, unknown>>, props);
}

async function runPlugins(
  plugins: Plugin[],
  htmlText: string,
  islands: IslandUse[],
): Promise<PluginRenderResult[]> {
  const names = [...new Set(islands.map((i) => i.name))];
  const results: PluginRenderResult[] = [];
  // Script entrypoints are named per plugin ("main" of "twind" → "twind_main").
  const scoped = (plugin: Plugin, result: PluginRenderResult): PluginRenderResult => ({
    styles: result.styles,
    scripts: result.scripts?.map((s) => ({
      ...s,
      entrypoint: entrypointKey(plugin.name, s.entrypoint),
    })),
  });
  for (const plugin of plugins) {
    if (plugin.render) {
      results.push(scoped(plugin, plugin.render({ render: () => ({ htmlText }), islands: names })));
    }
    if (plugin.renderAsync) {
      const renderAsync = () => Promise.resolve({ htmlText });
      results.push(scoped(plugin, await plugin.renderAsync({ renderAsync, islands: names })));
    }
  }
  return results;
}

/** The bundle name of a plugin entrypoint. */
export function entrypointKey(plugin: string, entrypoint: string): string {
  return `${plugin}_${entrypoint}`.replace(/\W/g, "_");
}

function assemble(
  body: string,
  headHtml: string,
  islands: IslandUse[],
  pluginResults: PluginRenderResult[],
  assets: ClientAssets,
  dev: boolean,
): string {
  let headExtra = pluginResults.flatMap((result) => result.styles ?? []).map(styleTag).join("");
  let bodyExtra = "";
  const scripts = pluginResults.flatMap((result) => result.scripts ?? []);
  if (islands.length > 0 || scripts.length > 0) {
    const plugins = scripts.map((s) => [assets.entrypoints[s.entrypoint], s.state]);
    const used = islands.map((i) => [i.name, i.props, i.hasChildren]);
    const state = { buildId: assets.buildId, plugins, islands: used };
    const pageUrls = pageEntries(assets, islands.map((i) => i.name));
    for (const url of preloads([...pageUrls, ...plugins.map((p) => p[0] as string)], assets.deps)) {
      headExtra += `<link rel="modulepreload" href="${escapeAttr(url)}">`;
    }
    bodyExtra += `<script id="__FRSH_STATE" type="application/json">${escapeJson(state)}</script>`;
    for (const url of pageUrls) {
      bodyExtra += `<script type="module" src="${escapeAttr(url)}"></script>`;
    }
  }
  if (dev) {
    const id = escapeAttr(assets.buildId);
    bodyExtra += `<script src="/_frsh/refresh.js" data-build-id="${id}"></script>`;
  }
  return "<!DOCTYPE html>" + injectIntoDocument(body, headExtra, headHtml, bodyExtra);
}

function styleTag(style: PluginRenderStyleTag): string {
  const id = style.id ? ` id="${escapeAttr(style.id)}"` : "";
  const media = style.media ? ` media="${escapeAttr(style.media)}"` : "";
  return `<style${id}${media}>${style.cssText.replaceAll("</style", "<\\/style")}</style>`;
}

/**
 * The page entries that boot the islands in `names`: the smallest that has them all (the usual
 * case: the route's own), or else, greedily, those that have most of the ones still missing.
 */
function pageEntries(assets: ClientAssets, names: string[]): string[] {
  const one = assets.groups.find((g) => names.every((name) => g.islands.includes(name)));
  if (one) return [one.url];
  const missing = new Set(names);
  const urls: string[] = [];
  while (missing.size > 0) {
    const count = (g: { islands: string[] }) => g.islands.filter((i) => missing.has(i)).length;
    const best = assets.groups.reduce((a, b) => count(b) > count(a) ? b : a);
    if (count(best) === 0) break; // an island the build does not know
    best.islands.forEach((island) => missing.delete(island));
    urls.push(best.url);
  }
  return urls;
}

/** The chunks to preload: the entries and everything they import statically. */
function preloads(entries: string[], deps: Record<string, string[]>): Set<string> {
  const urls = new Set<string>();
  const add = (url: string | undefined) => {
    if (!url || urls.has(url)) return;
    urls.add(url);
    deps[url]?.forEach(add);
  };
  entries.forEach(add);
  return urls;
}

const DEFAULT_HEAD =
  '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">';

/** Puts head and body additions into the app's `<html>` document, or wraps a bare page in one. */
function injectIntoDocument(
  body: string,
  headExtra: string,
  headHtml: string,
  bodyExtra: string,
): string {
  if (!body.startsWith("<html")) {
    return `<html><head>${DEFAULT_HEAD}${headExtra}${headHtml}</head><body>${body}${bodyExtra}</body></html>`;
  }
  let html = body;
  let headEnd = html.indexOf("</head>");
  if (headEnd >= 0 && /<title[\s>]/.test(headHtml)) {
    // A page's <Head><title> replaces the app's (browsers use the first title).
    html = html.slice(0, headEnd).replace(/<title[\s>][\s\S]*?<\/title>/, "") + html.slice(headEnd);
    headEnd = html.indexOf("</head>");
  }
  if (headEnd >= 0) {
    html = html.slice(0, headEnd) + headExtra + headHtml + html.slice(headEnd);
  } else {
    const afterHtmlTag = html.indexOf(">") + 1;
    html = html.slice(0, afterHtmlTag) + `<head>${headExtra}${headHtml}</head>` +
      html.slice(afterHtmlTag);
  }
  const end = html.lastIndexOf("</body>") >= 0
    ? html.lastIndexOf("</body>")
    : html.lastIndexOf("</html>");
  return end >= 0 ? html.slice(0, end) + bodyExtra + html.slice(end) : html + bodyExtra;
}
