import assert from "node:assert/strict";
import { buildRouteTable, matchRoute, pathToPattern } from "@/lib/fresh/src/router.ts";
import { fetchText, fixtureHandler, send } from "./helpers.ts";

const pageText = (html: string) => html.match(/<p id="page">(.*?)<\/p>/)?.[1];

Deno.test("[fresh] routing", async (t) => {
  const handler = await fixtureHandler();

  await t.step("index, static segments before dynamic ones before catch-all", async () => {
    assert.equal(pageText((await fetchText(handler, "/blog")).text), "blog index");
    assert.equal(pageText((await fetchText(handler, "/blog/new")).text), "blog new");
    assert.equal(pageText((await fetchText(handler, "/blog/42")).text), "blog post 42");
    assert.equal(pageText((await fetchText(handler, "/docs/intro")).text), "doc intro");
    assert.equal(pageText((await fetchText(handler, "/docs/a/b")).text), "catch-all a/b");
    assert.equal(pageText((await fetchText(handler, "/docs")).text), "catch-all ");
  });

  await t.step("params are percent-decoded once; a malformed escape stays as sent", async () => {
    assert.equal(pageText((await fetchText(handler, "/blog/a%20b")).text), "blog post a b");
    assert.equal(pageText((await fetchText(handler, "/blog/a%2520b")).text), "blog post a%20b");
    assert.equal(pageText((await fetchText(handler, "/blog/%E0%A4%A")).text), "blog post %E0%A4%A");
  });

  await t.step("route groups do not appear in the URL and get their layout", async () => {
    const res = await fetchText(handler, "/about");
    assert.equal(res.status, 200);
    assert.match(res.text, /<div class="marketing"><p id="page">about<\/p><\/div>/);
    assert.doesNotMatch((await fetchText(handler, "/blog/new")).text, /marketing/);
  });

  await t.step("_app wraps layouts, outermost layout first, async layouts included", async () => {
    const res = await fetchText(handler, "/admin/users");
    assert.match(
      res.text,
      /<div id="app"><div class="layout-admin"><div class="layout-users"><p id="page">users root>admin-1>admin-2<\/p><\/div><\/div><\/div>/,
    );
  });

  await t.step("middlewares run root first, then nested ones in array order", async () => {
    const res = await send(handler, "/admin/users");
    await res.body?.cancel();
    assert.equal(res.headers.get("x-trail"), "root>admin-1>admin-2");
    assert.equal(res.headers.get("x-destination"), "route");
  });

  await t.step(
    "skipAppWrapper and skipInheritedLayouts keep only the folder's own layout",
    async () => {
      const res = await fetchText(handler, "/admin/users/bare");
      assert.doesNotMatch(res.text, /id="app"|layout-admin/);
      assert.match(res.text, /^<!DOCTYPE html><html><head><meta charset="utf-8">/);
      assert.match(
        res.text,
        /<body><div class="layout-users"><p id="page">bare<\/p><\/div><\/body>/,
      );
    },
  );

  await t.step("ctx.render(data, init) sets data, status and headers", async () => {
    const res = await fetchText(handler, "/data?name=Ada");
    assert.equal(res.status, 203);
    assert.equal(res.headers.get("x-page"), "data");
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(pageText(res.text), "hello Ada");
  });

  await t.step("async route components get (req, ctx) and may return a Response", async () => {
    assert.equal(pageText((await fetchText(handler, "/async")).text), "async /async");
    const res = await send(handler, "/async?redirect");
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/");
  });

  await t.step("handlers object: GET, POST, and HEAD from GET without a body", async () => {
    const get = await fetchText(handler, "/api/items");
    assert.equal(get.status, 200);
    assert.deepEqual(JSON.parse(get.text), { items: [1, 2] });
    const post = await fetchText(handler, "/api/items", { method: "POST", body: '{"a":1}' });
    assert.equal(post.status, 201);
    assert.deepEqual(JSON.parse(post.text), { got: { a: 1 } });
    const head = await send(handler, "/api/items", { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("x-from"), "get");
    assert.equal(head.body, null);
  });

  await t.step("HEAD on a page renders GET without a body", async () => {
    const head = await send(handler, "/blog/new", { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(head.body, null);
  });

  await t.step(
    "unsupported methods answer Fresh's bare 405 listing the methods in Accept",
    async () => {
      const res = await send(handler, "/api/items", { method: "DELETE" });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get("accept"), "GET, POST");
      assert.equal(res.body, null);
      const page = await send(handler, "/blog/new", { method: "PUT" });
      assert.equal(page.status, 405);
      assert.equal(page.headers.get("accept"), "GET");
      assert.equal(page.body, null);
    },
  );

  await t.step("a handler function receives every method", async () => {
    const res = await fetchText(handler, "/api/any", { method: "PATCH" });
    assert.equal(res.text, "any PATCH");
  });

  await t.step("a thrown error renders _500 with status 500", async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const res = await fetchText(handler, "/boom");
      assert.equal(res.status, 500);
      assert.match(res.text, /<div id="app"><p id="error">Failed: kaboom<\/p><\/div>/);
    } finally {
      console.error = original;
    }
    assert.equal(errors.length, 1);
  });

  await t.step(
    "_500's handler picks the answer: its status and headers, or _404; logged only if 5xx",
    async () => {
      const errors: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => errors.push(args);
      try {
        const conflict = await fetchText(handler, "/boom?status=409");
        assert.equal(conflict.status, 409);
        assert.equal(conflict.headers.get("x-error-status"), "409");
        assert.match(conflict.text, /<p id="error">Failed: kaboom<\/p>/);
        const missing = await fetchText(handler, "/boom?status=404");
        assert.equal(missing.status, 404);
        assert.match(missing.text, /<p id="not-found">Nothing at \/boom<\/p>/);
      } finally {
        console.error = original;
      }
      assert.equal(errors.length, 0, "4xx answers are not logged as errors");
    },
  );

  await t.step(
    "the root middleware sees the error page as an answer (its headers apply)",
    async () => {
      const errors: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => errors.push(args);
      try {
        for (const path of ["/boom", "/boom?status=409", "/boom?status=404"]) {
          const res = await fetchText(handler, path);
          assert.equal(res.headers.get("x-trail"), "root", path);
          assert.equal(res.headers.get("x-destination"), "route", path);
        }
      } finally {
        console.error = original;
      }
    },
  );

  await t.step("ctx.renderNotFound() renders _404 with status 404 and data", async () => {
    const res = await fetchText(handler, "/missing");
    assert.equal(res.status, 404);
    assert.match(res.text, /<p id="not-found">Nothing at \/missing \(gone\)<\/p>/);
  });

  await t.step(
    "unknown paths render _404; only the root middleware runs, as in Fresh",
    async () => {
      const res = await fetchText(handler, "/admin/nope/x");
      assert.equal(res.status, 404);
      assert.match(res.text, /<div id="app"><p id="not-found">Nothing at \/admin\/nope\/x<\/p>/);
      assert.equal(res.headers.get("x-trail"), "root");
      assert.equal(res.headers.get("x-destination"), "notFound");
    },
  );

  await t.step("a trailing slash redirects to the path without it", async () => {
    const res = await send(handler, "/blog/new/?x=1");
    assert.equal(res.status, 307);
    assert.equal(res.headers.get("location"), "/blog/new?x=1");
    const sneaky = await send(handler, "http://localhost//evil.example/");
    assert.equal(sneaky.headers.get("location"), "/evil.example", "never protocol-relative");
  });
});

Deno.test("[fresh] file paths become URLPatterns", async (t) => {
  await t.step("index, [param], [...rest] and (group) segments", () => {
    assert.equal(pathToPattern(["index"]), "/");
    assert.equal(pathToPattern(["blog", "index"]), "/blog");
    assert.equal(pathToPattern(["blog", "[id]"]), "/blog/:id");
    assert.equal(pathToPattern(["(shop)", "cart", "[...path]"]), "/cart/:path*");
    assert.equal(pathToPattern(["teams", "team-[id]"]), "/teams/team-:id");
  });

  await t.step("static before dynamic before catch-all, whatever the file order", () => {
    const mod = { default: () => null };
    const table = buildRouteTable({
      "./routes/[...all].tsx": mod,
      "./routes/[id]/edit.tsx": mod,
      "./routes/[id].tsx": mod,
      "./routes/index.tsx": mod,
      "./routes/about.tsx": mod,
      "./routes/about/[...rest].tsx": mod,
    });
    assert.deepEqual(table.routes.map((r) => r.pattern), [
      "/",
      "/about",
      "/about/:rest*",
      "/:id",
      "/:id/edit",
      "/:all*",
    ]);
  });

  await t.step("routeOverride replaces the derived pattern", () => {
    const table = buildRouteTable({
      "./routes/legacy.tsx": { default: () => null, config: { routeOverride: "/old/:slug" } },
    });
    assert.equal(table.routes[0].pattern, "/old/:slug");
  });
});

Deno.test("[fresh] the literal-prefix shortcut finds the same route as URLPattern alone", async () => {
  const manifest = (await import("@/fresh.gen.ts")).default;
  const { routes } = buildRouteTable(manifest.routes);
  const byPatternOnly = (pathname: string) =>
    routes.find((route) => route.urlPattern.test({ pathname }))?.pattern ?? null;
  const paths = [
    "/",
    "/api",
    "/api/",
    "/api/entries",
    "/api/entries/",
    "/api/entries/12/details",
    "/api/competitions/1/players",
    "/api/nope/deeper",
    "/admin",
    "/admin/players",
    "/leaderboard/4",
    "/leaderboard/4/",
    "/team-selection/1",
    "/team-selection",
    "/payment/%E2%82%AC",
    "/ws",
    "/healthz",
    "/unknown/page",
    "/API/entries",
  ];
  for (const path of paths) {
    const found = matchRoute(routes, new URL(path, "http://localhost"));
    assert.equal(found?.route.pattern ?? null, byPatternOnly(path), path);
  }
  assert.ok(routes.some((route) => route.literal), "some routes are literal");
});
