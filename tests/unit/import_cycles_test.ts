/**
 * No import cycles in lib/ nor in the app around it (routes, islands, components, scripts, the
 * entry files), type-only imports included: each module can be read, tested and moved after the
 * ones it imports. A cycle is named by its modules in import order.
 */
import assert from "node:assert/strict";
import { filesWithEntries, importsOf } from "@/tests/helpers/import_graph.ts";

/** The import graph among `files`: each one's imports inside the set. */
async function graphOf(files: string[]): Promise<Map<string, string[]>> {
  const inSet = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    edges.set(file, (await importsOf(file)).filter((target) => inSet.has(target)));
  }
  return edges;
}

/**
 * The import cycles of the graph `edges`, one per knot (strongly connected component): the
 * shortest cycle through the knot's first module, then the knot's other members, if any.
 */
function findCycles(edges: Map<string, string[]>): string[] {
  // Tarjan's strongly connected components; every component of two or more modules (or one
  // importing itself) holds a cycle, reported as the shortest one through its first module.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const knots: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const knot: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      knot.push(member);
    } while (member !== file);
    if (knot.length > 1 || edges.get(file)!.includes(file)) knots.push(knot.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return knots.map((knot) => {
    const cycle = shortestCycle(knot[0], new Set(knot), edges);
    const others = knot.filter((file) => !cycle.includes(file));
    return cycle.join(" → ") + (others.length > 0 ? ` (knotted with ${others.join(", ")})` : "");
  });
}

/** The shortest path from `start` back to itself inside `knot` (breadth first). */
function shortestCycle(start: string, knot: Set<string>, edges: Map<string, string[]>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of edges.get(file)!) {
      if (!knot.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = file; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (previous.has(target)) continue;
      previous.set(target, file);
      queue.push(target);
    }
  }
  return [start, start];
}

Deno.test("[import cycles] no module of lib/ or the app imports itself through others", async () => {
  const files = await filesWithEntries(["lib", "routes", "islands", "components", "scripts"]);
  assert.ok(files.filter((file) => file.startsWith("lib/")).length > 100, "lib/ is read");
  assert.ok(files.includes("main.ts") && files.includes("fresh.gen.ts"), "the entries are read");
  const cycles = findCycles(await graphOf(files));
  assert.deepEqual(cycles, [], `import cycles in the app:\n${cycles.join("\n")}`);
});

Deno.test("[import cycles] the finder names each knot's cycle and passes a diamond", () => {
  const graph = (pairs: string) =>
    new Map(
      pairs.split(" ").map((pair) => {
        const [from, to] = pair.split(">");
        return [from, to ? to.split(",") : []];
      }),
    );
  assert.deepEqual(findCycles(graph("a>b,c b>d c>d d")), []);
  assert.deepEqual(findCycles(graph("a>a")), ["a → a"]);
  assert.deepEqual(findCycles(graph("a>b b>c c>a,d d>e e>d")), [
    "d → e → d",
    "a → b → c → a",
  ]);
  assert.deepEqual(findCycles(graph("a>b b>a,c c>b x>a")), ["a → b → a (knotted with c)"]);
});
