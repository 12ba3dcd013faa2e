/**
 * Renders islands and components with real React 19 (run by react_render_test.ts with an import
 * map that points `react` and `react-dom` at the npm packages, not at preact/compat).
 *
 * Input: a JSON file of captured props (see capture.ts) and of the seeded app's API answers, which
 * the hand-written cases of extra_cases.tsx use. Output (stdout, one JSON line): every component
 * id, how many times each was rendered, and each React warning or render error. Console errors
 * and warnings are what React reports (unknown DOM properties, missing keys, invalid hooks,
 * controlled inputs without handlers, …).
 */
import { createElement, type ReactElement, version } from "react";
import { renderToString } from "react-dom/server";
import { type Encoded, isComponentExport, sourceFiles } from "./components.ts";
import { extraCases, type SeedData } from "./extra_cases.tsx";

const root = new URL("../../", import.meta.url);

export interface RenderReport {
  reactVersion: string;
  components: string[];
  rendered: Record<string, number>;
  problems: string[];
}

const components = new Map<string, unknown>();
for (const file of await sourceFiles(root)) {
  const mod = await import(new URL(file, root).href);
  for (const [name, value] of Object.entries(mod)) {
    if (isComponentExport(file, name, value)) components.set(`${file}#${name}`, value);
  }
}

// deno-lint-ignore no-explicit-any
type AnyComponent = any;

function decode(value: Encoded): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decode);
  if ("$undefined" in value) return undefined;
  if ("$fn" in value) return () => {};
  if ("$date" in value) return new Date(value.$date as string);
  if ("$set" in value) return new Set((value.$set as Encoded[]).map(decode));
  if ("$map" in value) {
    return new Map((value.$map as Encoded[][]).map(([k, v]) => [decode(k), decode(v)]));
  }
  if ("$element" in value) {
    const name = value.$element as string;
    const type = name.includes("#") ? components.get(name) : name;
    if (!type) throw new Error(`unknown component ${name}`);
    return element(type, decode(value.props) as Record<string, unknown>, value.key as string);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = decode(v);
  return out;
}

/**
 * An element as JSX would create it: an array of children is spread into separate children (JSX
 * with several children), so only lists the components build themselves need keys.
 */
function element(type: unknown, props: Record<string, unknown>, key?: string | null) {
  const { children, ...rest } = props;
  if (key !== null && key !== undefined) rest.key = key;
  const list = children === undefined ? [] : Array.isArray(children) ? children : [children];
  return createElement(type as AnyComponent, rest, ...list);
}

const problems: string[] = [];
let current = "";
for (const level of ["error", "warn"] as const) {
  console[level] = (...args: unknown[]) => {
    const [format, ...rest] = args.map(String);
    let i = 0;
    const text = format.replace(/%[sdio]/g, () => rest[i++] ?? "");
    problems.push(`${current}: console.${level}: ${text} ${rest.slice(i).join(" ")}`.trim());
  };
}

const rendered: Record<string, number> = {};
function render(id: string, element: () => ReactElement) {
  current = id;
  try {
    renderToString(element());
    rendered[id] = (rendered[id] ?? 0) + 1;
  } catch (err) {
    problems.push(`${id}: render failed: ${err instanceof Error ? err.stack : err}`);
  }
}

const input = JSON.parse(await Deno.readTextFile(Deno.args[0])) as {
  captured: Record<string, Encoded[]>;
  data: SeedData;
};
const { captured, data } = input;
for (const [id, list] of Object.entries(captured)) {
  const type = components.get(id);
  if (!type) continue;
  for (const props of list) {
    render(id, () => element(type, decode(props) as Record<string, unknown>));
  }
}
for (const [id, make] of Object.entries(extraCases(data))) {
  if (!components.has(id)) problems.push(`extra case for an unknown component: ${id}`);
  else render(id, make);
}

const report: RenderReport = {
  reactVersion: version,
  components: [...components.keys()],
  rendered,
  problems,
};
console.log = () => {};
await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(report) + "\n"));
