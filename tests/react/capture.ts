/**
 * Records the props the app really passes to its islands and components while it renders pages
 * (on preact, through its public `options.vnode` hook), as JSON that `render_all.tsx` replays
 * with real React. Functions become no-op stand-ins; elements keep their type, key and props.
 */
import { options, type VNode } from "preact";
import { type Encoded, isComponentExport, sourceFiles } from "./components.ts";

/** Component id ("components/ui/Button.tsx#Button") → up to `limit` distinct encoded props. */
export type Captured = Record<string, Encoded[]>;

class Unsupported extends Error {}

/** Islands (default exports) and components (exported functions named in PascalCase). */
export async function componentIds(root: URL): Promise<Map<unknown, string>> {
  const ids = new Map<unknown, string>();
  for (const file of await sourceFiles(root)) {
    const mod = await import(new URL(file, root).href);
    for (const [name, value] of Object.entries(mod)) {
      if (isComponentExport(file, name, value)) ids.set(value, `${file}#${name}`);
    }
  }
  return ids;
}

/** Starts recording; `stop()` uninstalls the hook and returns what was seen. */
export function startCapture(ids: Map<unknown, string>, limit = 4): { stop(): Captured } {
  const captured: Captured = {};
  const seen = new Set<string>();
  // Element props as written (compat rewrites DOM props in place: className → class, …).
  const written = new WeakMap<object, Record<string, unknown>>();
  const previous = options.vnode;
  const hook = (vnode: VNode) => {
    const id = ids.get(vnode.type);
    if (typeof vnode.type === "string") written.set(vnode, { ...vnode.props });
    else if (id && (captured[id]?.length ?? 0) < limit) {
      try {
        const props = encode(vnode.props, ids, written, new Set());
        const text = `${id} ${JSON.stringify(props)}`;
        if (!seen.has(text)) {
          seen.add(text);
          (captured[id] ??= []).push(props);
        }
      } catch (err) {
        if (!(err instanceof Unsupported)) throw err;
      }
    }
    previous?.(vnode);
  };
  options.vnode = hook;
  return {
    stop() {
      if (options.vnode === hook) options.vnode = previous;
      return captured;
    },
  };
}

function isVNode(value: object): value is VNode {
  return "type" in value && "props" in value && value.constructor === undefined;
}

function encode(
  value: unknown,
  ids: Map<unknown, string>,
  written: WeakMap<object, Record<string, unknown>>,
  stack: Set<object>,
): Encoded {
  if (value === undefined) return { $undefined: true };
  if (value === null || typeof value !== "object" && typeof value !== "function") {
    if (typeof value === "bigint" || typeof value === "symbol") throw new Unsupported();
    return value as Encoded;
  }
  if (typeof value === "function") return { $fn: value.name };
  if (stack.has(value)) throw new Unsupported();
  stack.add(value);
  try {
    const rec = (v: unknown) => encode(v, ids, written, stack);
    if (Array.isArray(value)) return value.map(rec);
    if (value instanceof Date) return { $date: value.toISOString() };
    if (value instanceof Set) return { $set: [...value].map(rec) };
    if (value instanceof Map) return { $map: [...value].map(([k, v]) => [rec(k), rec(v)]) };
    if (isVNode(value)) {
      const type = typeof value.type === "string" ? value.type : ids.get(value.type);
      if (!type) throw new Unsupported();
      const props = typeof value.type === "string"
        ? written.get(value) ?? value.props
        : value.props;
      return {
        $element: type,
        key: value.key === undefined ? null : String(value.key),
        props: rec(props),
      };
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new Unsupported();
    const out: Record<string, Encoded> = {};
    for (const [k, v] of Object.entries(value)) out[k] = rec(v);
    return out;
  } finally {
    stack.delete(value);
  }
}
