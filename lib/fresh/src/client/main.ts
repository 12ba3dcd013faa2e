/**
 * The browser boot code, run by the page entry (one per page group, loaded only on pages with
 * islands or plugin scripts) with the islands it bundles. It reads the page state from
 * `#__FRSH_STATE`, runs plugin scripts and hydrates each island between its comment markers.
 */
/// <reference lib="dom" />
import { type ComponentType, h, hydrate, type VNode } from "preact";
import { setBuildId } from "../shared.ts";

/** [name, props, has JSX children] for each island occurrence, by index. */
type IslandEntry = [string, Record<string, unknown>, boolean];

interface PageState {
  buildId: string;
  plugins: [string, unknown][];
  islands: IslandEntry[];
}

interface MarkerRange {
  start: Comment;
  end: Comment;
}

/** Finds `<!--frsh-NAME:INDEX-->` … `<!--/frsh-NAME:INDEX-->` pairs, keyed by index. */
function findMarkers(): Map<number, MarkerRange> {
  const open = new Map<string, Comment>();
  const ranges = new Map<number, MarkerRange>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_COMMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node as Comment).data;
    if (text.startsWith("frsh-")) open.set(text.slice(5), node as Comment);
    if (!text.startsWith("/frsh-")) continue;
    const key = text.slice(6);
    const start = open.get(key);
    if (start) {
      ranges.set(Number(key.slice(key.lastIndexOf(":") + 1)), { start, end: node as Comment });
    }
  }
  return ranges;
}

/** A stand-in parent so preact renders only the nodes between two markers. */
function rootFragment({ start, end }: MarkerRange): Element {
  const parent = start.parentNode as Element;
  const nodes = (): ChildNode[] => {
    const list: ChildNode[] = [];
    for (let n = start.nextSibling; n && n !== end; n = n.nextSibling) list.push(n);
    return list;
  };
  const root = {
    nodeType: 1,
    namespaceURI: parent.namespaceURI,
    parentNode: parent,
    get firstChild() {
      return nodes()[0] ?? null;
    },
    get childNodes() {
      return nodes();
    },
    insertBefore: (node: Node, ref: Node | null) => parent.insertBefore(node, ref ?? end),
    appendChild: (node: Node) => parent.insertBefore(node, end),
    removeChild: (node: Node) => parent.removeChild(node),
  };
  return root as unknown as Element;
}

/** The server-rendered JSX children of island `index`, kept as static HTML. */
function staticChildren(index: number): VNode {
  const el = document.querySelector(`frsh-children[data-frsh="${index}"]`);
  return h<Record<string, unknown>>("frsh-children", {
    "data-frsh": String(index),
    style: "display:contents",
    dangerouslySetInnerHTML: { __html: el?.innerHTML ?? "" },
  });
}

let pluginsStarted = false;

/**
 * Hydrates the page's islands that `components` has (island name → component); a page whose
 * islands are spread over several page entries runs each, and plugin scripts run once.
 */
export async function boot(components: Record<string, ComponentType>): Promise<void> {
  const el = document.getElementById("__FRSH_STATE");
  if (!el?.textContent) return;
  const state = JSON.parse(el.textContent) as PageState;
  setBuildId(state.buildId);
  if (!pluginsStarted) {
    pluginsStarted = true;
    const plugins = await Promise.all(state.plugins.map(([url]) => import(url)));
    state.plugins.forEach(([, pluginState], i) => plugins[i].default(pluginState));
  }
  const markers = findMarkers();
  state.islands.forEach(([name, props, hasChildren], index) => {
    const range = markers.get(index);
    const Component = components[name];
    if (!range || !Component) return;
    if (hasChildren) props.children = staticChildren(index);
    hydrate(h(Component, props), rootFragment(range));
  });
}
