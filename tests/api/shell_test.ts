import assert from "node:assert/strict";
import { createHandler } from "$fresh/server.ts";
import manifest from "@/fresh.gen.ts";
import freshConfig from "@/fresh.config.ts";
import { loadConfig } from "@/lib/config.ts";
import { createServices, servicesPlugin } from "@/lib/services.ts";
import { isAdminPath } from "@/routes/_app.tsx";
import { islandCount } from "@/tests/helpers/islands.ts";

/** A handler over the real manifest with fresh in-memory services. */
async function makeShellApp() {
  const kv = await Deno.openKv(":memory:");
  const config = loadConfig({ DENO_KV_PATH: ":memory:", DEMO_DATA: "0" });
  const services = createServices(config, kv);
  const handler = await createHandler(manifest, {
    ...freshConfig,
    plugins: [...(freshConfig.plugins ?? []), servicesPlugin(services)],
  });
  const get = (path: string) => handler(new Request(`http://localhost${path}`));
  return { kv, get, services };
}

const HEADER_MARK = 'aria-label="Fantasy Contests home"';

/** The headers of every answer; `stripe`: the payment page's policy also lets Stripe.js run. */
function assertSecurityHeaders(res: Response, stripe = false) {
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /default-src 'self'/);
  // Inline script only by hash, never 'unsafe-inline', and only the page's own: the checkout's
  // prepaint script on the payment page, none on these others.
  assert.match(csp, /script-src 'self'[ ;]/);
  assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
  assert.match(csp, /style-src 'self' 'unsafe-inline'/);
  // The socket source is the listening port's loopback name, never the Host header.
  assert.match(csp, /connect-src 'self' ws:\/\/localhost:8000/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
  const permissions = res.headers.get("permissions-policy") ?? "";
  if (stripe) {
    assert.match(csp, /script-src 'self'( 'sha256-[^']+')+ https:\/\/js\.stripe\.com/);
    assert.match(csp, /connect-src 'self' ws:\/\/localhost:8000 https:\/\/api\.stripe\.com/);
    assert.match(csp, /frame-src https:\/\/js\.stripe\.com https:\/\/hooks\.stripe\.com/);
    assert.match(permissions, /payment=\(self "https:\/\/js\.stripe\.com"\)/);
  } else {
    assert.doesNotMatch(csp, /sha256-/, "no inline script allowed where none runs");
    assert.doesNotMatch(csp, /stripe/, "no Stripe where Stripe.js never loads");
    assert.match(csp, /frame-src 'none'/);
    assert.match(permissions, /payment=\(\)/);
  }
}

Deno.test("[shell] an unknown path renders 'Page Not Found' with status 404", async () => {
  const { kv, get } = await makeShellApp();
  try {
    const res = await get("/no/such/page");
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    const html = await res.text();
    assert.match(html, /<h1[^>]*>Page Not Found<\/h1>/);
    assert.match(html, /<a href="\/"[^>]*>Return Home<\/a>/);
    assert.ok(html.includes(HEADER_MARK), "the public header is shown");
    assertSecurityHeaders(res);
  } finally {
    kv.close();
  }
});

Deno.test("[shell] GET /healthz answers without KV, /readyz with one read", async (t) => {
  const { kv, get, services } = await makeShellApp();
  await t.step("/healthz and /readyz answer 200 {ok: true} with a working KV", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.deepEqual(await res.json(), { ok: true });
    }
  });
  await t.step("/readyz answers 503 while the start-up work runs", async () => {
    services.startUp = { done: false, error: null };
    const res = await get("/readyz");
    assert.equal(res.status, 503);
    assert.deepEqual(await res.json(), { ok: false, reason: "starting" });
    services.startUp = { done: true, error: null };
  });
  await t.step("a failed store: /healthz still 200, /readyz 503", async () => {
    kv.close();
    const health = await get("/healthz");
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const ready = await get("/readyz");
    assert.equal(ready.status, 503);
    assert.deepEqual(await ready.json(), { ok: false, reason: "store unavailable" });
  });
});

Deno.test("[shell] security headers and CSP on pages and API answers", async (t) => {
  const { kv, get } = await makeShellApp();
  try {
    for (const path of ["/", "/api/competitions", "/healthz", "/missing", "/payment/1"]) {
      await t.step(path, async () => {
        const res = await get(path);
        await res.body?.cancel();
        assert.ok(res.status < 500, `status ${res.status}`);
        assertSecurityHeaders(res, path.startsWith("/payment/"));
      });
    }
  } finally {
    kv.close();
  }
});

Deno.test("[shell] the public header is on public pages, not on admin pages", async () => {
  const { kv, get } = await makeShellApp();
  try {
    const home = await (await get("/")).text();
    assert.ok(home.includes(HEADER_MARK), "home has the header");
    assert.match(home, />Rules<\/button>/);
    assert.ok(islandCount(home, "PageView") > 0, "public pages track page views");
    const adminRes = await get("/admin/no-such-page");
    assert.equal(adminRes.status, 404);
    const admin = await adminRes.text();
    assert.ok(admin.startsWith("<!DOCTYPE html><html"), "admin pages are full documents");
    assert.match(admin, /Page Not Found/);
    assert.ok(!admin.includes(HEADER_MARK), "no public header under /admin");
    assert.ok(!admin.includes(">Rules</button>"), "no Rules button under /admin");
    assert.match(
      admin,
      /<style[^>]*>[\s\S]*?\.bg-primary\{[\s\S]*?<\/style>/,
      "twind styles are inlined",
    );
    assert.ok(islandCount(admin, "Toaster") > 0, "the toaster is mounted");
    assert.equal(islandCount(admin, "PageView"), 0, "no page-view tracking on admin pages");

    const loginRes = await get("/admin/login");
    assert.equal(loginRes.status, 200);
    const login = await loginRes.text();
    assert.ok(!login.includes(HEADER_MARK), "no public header on /admin/login");
    assert.ok(islandCount(login, "Toaster") > 0, "the admin login page has the toaster");
    assert.equal(islandCount(login, "Toaster"), 1, "exactly one toaster");
  } finally {
    kv.close();
  }
});

Deno.test("[shell] isAdminPath", () => {
  assert.equal(isAdminPath("/admin"), true);
  assert.equal(isAdminPath("/admin/login"), true);
  assert.equal(isAdminPath("/administrator"), false);
  assert.equal(isAdminPath("/"), false);
  assert.equal(isAdminPath("/leaderboard/1"), false);
});
