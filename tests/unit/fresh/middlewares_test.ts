import assert from "node:assert/strict";
import { runChain } from "@/lib/fresh/src/compose.ts";
import { compression } from "@/lib/fresh/src/middlewares/compress.ts";
import { devNoCache } from "@/lib/fresh/src/middlewares/dev_no_cache.ts";
import { trailingSlashes } from "@/lib/fresh/src/middlewares/trailing_slashes.ts";
import type { FreshContext, MiddlewareHandler } from "@/lib/fresh/src/types.ts";

/** Runs `middlewares` alone around `answer` for `url`; true in `reached` when the answer ran. */
async function run(
  url: string,
  middlewares: MiddlewareHandler[],
  answer = () => new Response("ok"),
) {
  const req = new Request(url, { headers: { "accept-encoding": "gzip" } });
  const ctx = { url: new URL(url), state: {} } as unknown as FreshContext;
  let reached = false;
  const res = await runChain(req, ctx, middlewares, () => {
    reached = true;
    return Promise.resolve(answer());
  });
  return { res, reached };
}

Deno.test("[fresh] the trailing-slash middleware", async (t) => {
  await t.step("never: /a/b/ redirects to /a/b with its query, / stays", async () => {
    const { res, reached } = await run("http://x/a/b//?q=1", [trailingSlashes("never")]);
    assert.equal(res.status, 307);
    assert.equal(res.headers.get("location"), "/a/b?q=1");
    assert.equal(reached, false);
    assert.equal((await run("http://x/", [trailingSlashes("never")])).reached, true);
  });

  await t.step("always: /a gets its slash, a file path and /_frsh/ keep theirs", async () => {
    const mw = [trailingSlashes("always")];
    assert.equal((await run("http://x/a", mw)).res.headers.get("location"), "/a/");
    assert.equal((await run("http://x/logo.svg", mw)).reached, true);
    assert.equal((await run("http://x/_frsh/js/1/main", mw)).reached, true);
  });
});

Deno.test("[fresh] the compression middleware compresses what the chain answers", async () => {
  const html = "<p>hello</p>".repeat(200);
  const answer = () => new Response(html, { headers: { "content-type": "text/html" } });
  const { res } = await run("http://x/", [compression()], answer);
  assert.equal(res.headers.get("content-encoding"), "gzip");
  assert.equal(res.headers.get("vary"), "Accept-Encoding");
  const body = new Response(res.body!.pipeThrough(new DecompressionStream("gzip")));
  assert.equal(await body.text(), html);
});

Deno.test("[fresh] the dev middleware adds no-cache where the answer set no policy", async () => {
  assert.equal(
    (await run("http://x/", [devNoCache()])).res.headers.get("cache-control"),
    "no-cache",
  );
  const kept = await run(
    "http://x/",
    [devNoCache()],
    () => new Response("ok", { headers: { "cache-control": "max-age=60" } }),
  );
  assert.equal(kept.res.headers.get("cache-control"), "max-age=60");
});
