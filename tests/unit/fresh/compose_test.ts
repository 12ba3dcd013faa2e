import assert from "node:assert/strict";
import { runChain } from "@/lib/fresh/src/compose.ts";
import type { FreshContext, MiddlewareHandler } from "@/lib/fresh/src/types.ts";

function context(): FreshContext {
  return { state: {} } as unknown as FreshContext;
}

const req = new Request("http://localhost/");

Deno.test("[fresh] a chain runs its middlewares in order around the final answer", async () => {
  const seen: string[] = [];
  const wrap = (name: string): MiddlewareHandler => async (_req, ctx) => {
    seen.push(`${name} in`);
    const res = await ctx.next();
    seen.push(`${name} out`);
    res.headers.append("x-chain", name);
    return res;
  };
  const res = await runChain(req, context(), [wrap("a"), wrap("b")], () => {
    seen.push("final");
    return Promise.resolve(new Response("ok"));
  });
  assert.equal(await res.text(), "ok");
  assert.deepEqual(seen, ["a in", "b in", "final", "b out", "a out"]);
  assert.equal(res.headers.get("x-chain"), "b, a");
});

Deno.test("[fresh] a middleware may answer without calling next", async () => {
  let reached = false;
  const guard: MiddlewareHandler = () => new Response("no", { status: 403 });
  const res = await runChain(req, context(), [guard], () => {
    reached = true;
    return Promise.resolve(new Response("ok"));
  });
  assert.equal(res.status, 403);
  assert.equal(reached, false);
});

Deno.test("[fresh] an error thrown in the chain rejects it, and outer middlewares may catch it", async () => {
  const failing: MiddlewareHandler = () => {
    throw new Error("boom");
  };
  await assert.rejects(
    () => runChain(req, context(), [failing], () => Promise.resolve(new Response("ok"))),
    /boom/,
  );
  const boundary: MiddlewareHandler = (_req, ctx) =>
    ctx.next().catch((err) => new Response(`caught ${err.message}`, { status: 500 }));
  const res = await runChain(
    req,
    context(),
    [boundary],
    () => Promise.reject(new Error("late")),
  );
  assert.equal(await res.text(), "caught late");
});
