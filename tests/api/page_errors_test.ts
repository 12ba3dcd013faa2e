/**
 * Errors on pages (not /api): a domain error thrown by a page answers with the status of the one
 * mapping (lib/http/errors.ts) — NotFoundError the 404 page, the others the error page with their
 * 4xx — and unknown errors a 500; every page answer to hostile or unknown ids is a 4xx or the page,
 * never a 5xx; all of them carry the security headers.
 */
import assert from "node:assert/strict";
import { ensureAdmin } from "@/lib/auth/admins.ts";
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from "@/lib/domain/errors.ts";
import type { Entry } from "@/lib/domain/types.ts";
import manifest from "@/fresh.gen.ts";
import { RenderCache } from "@/lib/render_cache.ts";
import { makeTestApp, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { loginCookie, makeCompetition, makeEntry, TEST_ADMIN } from "@/tests/helpers/fixtures.ts";

function assertSecurityHeaders(res: Response, label: string) {
  assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'self'/, label);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff", label);
  assert.equal(res.headers.get("x-frame-options"), "DENY", label);
}

/** The text of the HTML with tags, scripts and styles removed. */
function text(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ").replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** Runs `fn` with the app's store reads throwing `err` (as a data function would). */
async function withFailingReads(app: TestApp, err: Error, fn: () => Promise<void>) {
  const { services } = app;
  const kv = services.kv;
  const fail = () => {
    const failed = Promise.reject(err);
    failed.catch(() => {}); // a read nobody awaits (several in one Promise.all) is no test failure
    return failed;
  };
  const cache = services.cache;
  services.kv = new Proxy(kv, {
    get: (target, name) =>
      ["get", "getMany", "list"].includes(String(name)) ? fail : Reflect.get(target, name, target),
  });
  services.cache = new RenderCache(services.kv); // the pages' cache reads the same store
  const original = console.error;
  console.error = () => {};
  try {
    await fn();
  } finally {
    console.error = original;
    services.kv = kv;
    services.cache = cache;
  }
}

Deno.test("[page errors] a domain error thrown by a page answers its mapped status", async (t) => {
  await withTestApp(async (app) => {
    const competition = await makeCompetition(app.kv);
    const cases: [Error, number, RegExp][] = [
      [new NotFoundError("Competition not found"), 404, /Page Not Found/],
      [new InvalidInputError("Bad id"), 400, /Invalid Request/],
      [new UnauthorizedError(), 401, /Login Required/],
      [new ConflictError("Closed"), 409, /Not Possible Right Now/],
      [new TooManyRequestsError(undefined, 42), 429, /Too Many Requests/],
      [new Error("kv exploded at /secret/path"), 500, /Something Went Wrong/],
    ];
    for (const path of ["/", `/team-selection/${competition.id}`, "/confirmation/FFT-AAAAAAAA"]) {
      for (const [err, status, page] of cases) {
        await t.step(`${path}: ${err.name} → ${status}`, async () => {
          await withFailingReads(app, err, async () => {
            const res = await app.request(path);
            const html = await res.text();
            assert.equal(res.status, status);
            assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
            assert.match(text(html), page);
            assert.ok(!html.includes(err.message), "no internals in the page");
            assert.ok(!html.includes("    at "), "no stack");
            assertSecurityHeaders(res, path);
            assert.equal(res.headers.get("cache-control"), "no-store");
            if (status === 429) assert.equal(res.headers.get("retry-after"), "42");
          });
        });
      }
    }
  });
});

Deno.test("[page errors] throttled admin headers on a page: the 429 page, not JSON", async () => {
  await withTestApp(async (app) => {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    const page = (password: string) =>
      app.request("/admin/dashboard", {
        from: "203.0.113.9",
        headers: { "x-admin-username": TEST_ADMIN.username, "x-admin-password": password },
      });
    for (let i = 0; i < 5; i++) await (await page(`wrong-${i}`)).body?.cancel();
    const res = await page("wrong-again");
    assert.equal(res.status, 429);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(text(await res.text()), /Too Many Requests/);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    assertSecurityHeaders(res, "/admin/dashboard");
  });
});

/** A league the entry's owner creates (its id is the invite link's token). */
async function leagueOf(app: TestApp, entry: Entry): Promise<string> {
  const res = await app.request("/api/leagues", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      teamId: entry.teamId,
      editToken: entry.editToken,
      name: "Page Friends",
    }),
  });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  return body.league.id;
}

/** Path values no page knows: unknown, out of range, malformed and hostile. */
const HOSTILE = [
  "9999",
  "0",
  "-1",
  "1.5",
  "1e3",
  "abc",
  "9007199254740993",
  "99999999999999999999",
  "%00",
  "%E0%A4%A",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "%F0%9F%98%80",
  "__proto__",
  "FFT-AAAAAAAA",
  "x".repeat(3000),
];

/** What each page with a path parameter shows for a value it does not know. */
const NOT_FOUND_TEXT: Record<string, RegExp> = {
  "/leaderboard/[id]": /Competition Not Found/,
  "/team-selection/[id]": /Competition not found/,
  "/payment/[id]": /Invalid Competition or Team/,
  "/confirmation/[id]": /Entry Not Found/,
  "/claim/[token]": /Claim Link Not Valid/,
  "/edit/[token]": /Edit link not found/,
};

Deno.test("[page errors] every page route with unknown or hostile ids: 404, never 5xx", async (t) => {
  const app = await makeTestApp();
  try {
    const competition = await makeCompetition(app.kv);
    const entry = await makeEntry(app.kv, competition);
    const cookie = await loginCookie(app);
    const pages = Object.keys(manifest.routes)
      .filter((key) => key.endsWith(".tsx") && key.includes("["))
      .map((key) => key.replace(/^\.\/routes/, "").replace(/\.tsx$/, ""));
    assert.ok(pages.length >= 9, `page routes with ids: ${pages.join(", ")}`);
    for (const pattern of pages) {
      await t.step(pattern, async () => {
        const admin = pattern.startsWith("/admin/");
        for (const value of HOSTILE) {
          const path = pattern.replace(/\[[^\]]+\]/, value);
          const res = await app.request(path, { headers: admin ? { cookie } : {} });
          const body = text(await res.text());
          const label = `${path.slice(0, 80)} → ${res.status}`;
          assert.equal(res.status, 404, label);
          assert.match(res.headers.get("content-type") ?? "", /^text\/html/, label);
          assertSecurityHeaders(res, label);
          assert.doesNotMatch(body, /Something Went Wrong/, label);
          if (NOT_FOUND_TEXT[pattern]) assert.match(body, NOT_FOUND_TEXT[pattern], label);
        }
        const known = pattern.includes("confirmation")
          ? entry.teamId
          : pattern.startsWith("/edit/")
          ? entry.editToken!
          : pattern.startsWith("/leagues/")
          ? await leagueOf(app, entry)
          : String(competition.id);
        if (pattern.startsWith("/admin/matches/")) return; // the competition has no match
        // A claim token exists only in a winner's e-mail (tests/api/payouts_test.ts opens one).
        if (pattern.startsWith("/claim/")) return;
        const res = await app.request(pattern.replace(/\[[^\]]+\]/, known), {
          headers: admin ? { cookie } : {},
        });
        await res.body?.cancel();
        assert.equal(res.status, 200, `${pattern} with a known id`);
      });
    }
  } finally {
    await app.close();
  }
});
