import assert from "node:assert/strict";
import { ensureAdmin } from "@/lib/auth/admins.ts";
import { getAdminFromRequest } from "@/lib/auth/guard.ts";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "@/lib/auth/passwords.ts";
import { getAdminByUsername } from "@/lib/auth/records/admins.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { loginCookie, makeAdminHeaders, TEST_ADMIN } from "@/tests/helpers/fixtures.ts";

/** Every admin route with a method it answers (ids that exist or not: the guard comes first). */
const ADMIN_ROUTES: [string, string][] = [
  ["GET", "/api/admin/session"],
  ["POST", "/api/admin/logout"],
  ["GET", "/api/admin/competitions"],
  ["POST", "/api/admin/competitions"],
  ["GET", "/api/admin/competitions/1"],
  ["PUT", "/api/admin/competitions/1"],
  ["DELETE", "/api/admin/competitions/1"],
  ["GET", "/api/admin/competitions/1/available-players"],
  ["GET", "/api/admin/competitions/1/players"],
  ["POST", "/api/admin/competitions/1/players"],
  ["DELETE", "/api/admin/competitions/1/players"],
  ["GET", "/api/admin/competitions/1/prizes"],
  ["POST", "/api/admin/competitions/1/prizes"],
  ["GET", "/api/admin/competitions/1/performances"],
  ["POST", "/api/admin/competitions/1/performances"],
  ["GET", "/api/admin/competitions/1/events"],
  ["POST", "/api/admin/competitions/1/events"],
  ["DELETE", "/api/admin/competitions/1/events/1"],
  ["GET", "/api/admin/matches"],
  ["POST", "/api/admin/matches"],
  ["GET", "/api/admin/matches/1"],
  ["PUT", "/api/admin/matches/1"],
  ["DELETE", "/api/admin/matches/1"],
  ["GET", "/api/admin/teams"],
  ["POST", "/api/admin/teams"],
  ["GET", "/api/admin/teams/1/players"],
  ["POST", "/api/admin/players"],
  ["PATCH", "/api/admin/players/1"],
];

function login(app: TestApp, body: unknown, headers: HeadersInit = {}) {
  return app.request("/api/admin/login", { method: "POST", json: body, headers });
}

Deno.test("[auth] passwords are PBKDF2-SHA256 hashes with a per-user salt", async () => {
  const a = await hashPassword("secret-one");
  const b = await hashPassword("secret-one");
  assert.equal(a.iterations, PBKDF2_ITERATIONS);
  assert.ok(PBKDF2_ITERATIONS >= 210_000);
  assert.notEqual(a.salt, b.salt);
  assert.notEqual(a.passwordHash, b.passwordHash);
  assert.equal(atob(a.salt).length, 16);
  assert.equal(await verifyPassword("secret-one", a), true);
  assert.equal(await verifyPassword("secret-two", a), false);
});

Deno.test("[auth] ensureAdmin creates, updates and generates the start-up admin", async (t) => {
  const kv = await Deno.openKv(":memory:");
  try {
    await t.step("no admin and none configured: `admin` with a random password", async () => {
      const result = await ensureAdmin(kv, null, null);
      assert.equal(result.username, "admin");
      assert.ok(result.generatedPassword && result.generatedPassword.length >= 16);
      const admin = await getAdminByUsername(kv, "admin");
      assert.ok(admin);
      assert.equal(await verifyPassword(result.generatedPassword, admin), true);
      assert.ok(!JSON.stringify(admin).includes(result.generatedPassword));
    });
    await t.step("an admin exists and none configured: nothing generated", async () => {
      const result = await ensureAdmin(kv, null, null);
      assert.equal(result.generatedPassword, undefined);
    });
    await t.step("a configured username without password gets a generated one", async () => {
      const result = await ensureAdmin(kv, "ops", null);
      assert.equal(result.username, "ops");
      const admin = await getAdminByUsername(kv, "ops");
      assert.ok(admin && result.generatedPassword);
      assert.equal(await verifyPassword(result.generatedPassword, admin), true);
      assert.equal((await ensureAdmin(kv, "ops", null)).generatedPassword, undefined);
    });
    await t.step("configured admin is created, then its changed password updated", async () => {
      await ensureAdmin(kv, "boss", "first-password");
      const first = await getAdminByUsername(kv, "boss");
      assert.ok(first && await verifyPassword("first-password", first));
      await ensureAdmin(kv, "boss", "second-password");
      const second = await getAdminByUsername(kv, "boss");
      assert.ok(second && await verifyPassword("second-password", second));
      assert.equal(second.id, first.id);
      assert.equal(await verifyPassword("first-password", second), false);
    });
  } finally {
    kv.close();
  }
});

Deno.test("[auth] login sets a session cookie that opens the admin API", async (t) => {
  const app = await makeTestApp();
  try {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    const res = await login(app, TEST_ADMIN);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    assert.deepEqual(await res.json(), { username: "admin" });
    const setCookie = res.headers.get("set-cookie")!;
    const cookie = setCookie.split(";")[0];

    await t.step("cookie attributes", () => {
      assert.match(setCookie, /^admin_session=[0-9a-f]{64};/);
      for (const attr of ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=43200"]) {
        assert.ok(setCookie.includes(attr), `${attr} missing in ${setCookie}`);
      }
      assert.ok(!setCookie.includes("Secure"), "plain http gets no Secure flag");
    });
    await t.step("GET /api/admin/session answers the username", async () => {
      const session = await app.request("/api/admin/session", { headers: { cookie } });
      assert.equal(session.status, 200);
      assert.deepEqual(await readJsonBody(session), { username: "admin" });
    });
    await t.step("the cookie opens admin routes", async () => {
      const list = await app.request("/api/admin/competitions", { headers: { cookie } });
      assert.equal(list.status, 200);
      assert.deepEqual(await readJsonBody(list), []);
    });
    await t.step("logout clears the cookie and ends the session", async () => {
      const out = await app.request("/api/admin/logout", { method: "POST", headers: { cookie } });
      assert.equal(out.status, 200);
      await out.body?.cancel();
      assert.match(out.headers.get("set-cookie")!, /^admin_session=;.*Max-Age=0/);
      const after = await app.request("/api/admin/session", { headers: { cookie } });
      assert.equal(after.status, 401);
      assert.deepEqual(await readJsonBody(after), { message: "Authentication required" });
    });
  } finally {
    await app.close();
  }
});

Deno.test("[auth] login over https marks the cookie Secure", async () => {
  const app = await makeTestApp();
  try {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    const res = await app.handler(
      new Request("https://contest.example/api/admin/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(TEST_ADMIN),
      }),
    );
    assert.equal(res.status, 200);
    await res.body?.cancel();
    assert.match(res.headers.get("set-cookie")!, /; Secure/);
  } finally {
    await app.close();
  }
});

Deno.test("[auth] login refuses bad input and wrong credentials", async (t) => {
  const app = await makeTestApp();
  try {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    await t.step("missing username → 400 'Username is required'", async () => {
      const res = await login(app, { username: "", password: "x" });
      assert.equal(res.status, 400);
      const body = await readJsonBody(res);
      assert.equal(body.message, "Username is required");
      assert.deepEqual(body.issues[0].path, ["username"]);
    });
    await t.step("missing password → 400 'Password is required'", async () => {
      const res = await login(app, { username: "admin" });
      assert.equal(res.status, 400);
      assert.equal((await readJsonBody(res)).message, "Password is required");
    });
    await t.step("malformed JSON → 400 'Invalid JSON body'", async () => {
      const res = await app.request("/api/admin/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{not json",
      });
      assert.equal(res.status, 400);
      assert.deepEqual(await readJsonBody(res), { message: "Invalid JSON body" });
    });
    await t.step("a body over 64 KiB → 413", async () => {
      const res = await login(app, { username: "admin", password: "x".repeat(70_000) });
      assert.equal(res.status, 413);
      assert.equal((await readJsonBody(res)).message, "Request body too large");
    });
    await t.step("wrong password → 401 'Invalid credentials', no cookie", async () => {
      const res = await login(app, { username: "admin", password: "wrong" });
      assert.equal(res.status, 401);
      assert.deepEqual(await readJsonBody(res), { message: "Invalid credentials" });
      assert.equal(res.headers.get("set-cookie"), null);
    });
    await t.step("unknown user → the same 401", async () => {
      const res = await login(app, { username: "nobody", password: "wrong" });
      assert.equal(res.status, 401);
      assert.deepEqual(await readJsonBody(res), { message: "Invalid credentials" });
    });
  } finally {
    await app.close();
  }
});

Deno.test("[auth] five failed logins throttle the username with 429 and Retry-After", async () => {
  const app = await makeTestApp();
  try {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    for (let i = 0; i < 5; i++) {
      const res = await login(app, { username: "admin", password: `wrong-${i}` });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    }
    const blocked = await login(app, TEST_ADMIN);
    assert.equal(blocked.status, 429);
    assert.equal(blocked.headers.get("retry-after"), "900");
    assert.match((await readJsonBody(blocked)).message, /Too many failed login attempts/);
  } finally {
    await app.close();
  }
});

Deno.test("[auth] a successful login clears earlier failures", async () => {
  const app = await makeTestApp();
  try {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    for (let i = 0; i < 4; i++) {
      await (await login(app, { username: "admin", password: "wrong" })).body?.cancel();
    }
    const ok = await login(app, TEST_ADMIN);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    for (let i = 0; i < 4; i++) {
      await (await login(app, { username: "admin", password: "wrong" })).body?.cancel();
    }
    const again = await login(app, TEST_ADMIN);
    assert.equal(again.status, 200);
    await again.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[auth] x-admin-* headers are accepted, wrong ones count as failures", async (t) => {
  const app = await makeTestApp();
  try {
    const headers = await makeAdminHeaders(app.kv);
    await t.step("valid headers open admin routes", async () => {
      const res = await app.request("/api/admin/session", { headers });
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), { username: "admin" });
    });
    await t.step("a wrong password in the headers is a 401", async () => {
      const res = await app.request("/api/admin/competitions", {
        headers: { ...headers, "x-admin-password": "nope" },
      });
      assert.equal(res.status, 401);
      assert.deepEqual(await readJsonBody(res), { message: "Authentication required" });
    });
    await t.step("after five header failures the username is throttled (429)", async () => {
      for (let i = 0; i < 4; i++) {
        const res = await app.request("/api/admin/teams", {
          headers: { ...headers, "x-admin-password": `nope-${i}` },
        });
        assert.equal(res.status, 401);
        await res.body?.cancel();
      }
      const blocked = await login(app, TEST_ADMIN);
      assert.equal(blocked.status, 429);
      await blocked.body?.cancel();
    });
  } finally {
    await app.close();
  }
});

Deno.test("[auth] every /api/admin route answers 401 without valid credentials", async () => {
  const app = await makeTestApp();
  try {
    await makeAdminHeaders(app.kv);
    for (const [method, path] of ADMIN_ROUTES) {
      const res = await app.request(path, { method, json: method === "GET" ? undefined : {} });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.deepEqual(await readJsonBody(res), { message: "Authentication required" });
      const forged = await app.request(path, {
        method,
        headers: { cookie: "admin_session=0000" },
      });
      assert.equal(forged.status, 401, `${method} ${path} with a forged cookie`);
      await forged.body?.cancel();
    }
  } finally {
    await app.close();
  }
});

Deno.test("[auth] a session cookie from login works on every admin list", async () => {
  const app = await makeTestApp();
  try {
    const cookie = await loginCookie(app);
    for (const path of ["/api/admin/competitions", "/api/admin/matches", "/api/admin/teams"]) {
      const res = await app.request(path, { headers: { cookie } });
      assert.equal(res.status, 200, path);
      assert.ok(Array.isArray(await readJsonBody(res)));
    }
  } finally {
    await app.close();
  }
});

Deno.test("[api] unknown /api paths answer a JSON 404", async () => {
  const app = await makeTestApp();
  try {
    for (const path of ["/api/nope", "/api/admin/nope", "/api/competitions/1/nope/2"]) {
      const res = await app.request(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(await readJsonBody(res), { message: "Not found" });
    }
  } finally {
    await app.close();
  }
});

Deno.test("[api] a method a route does not answer is a JSON 405 with Allow", async () => {
  const app = await makeTestApp();
  try {
    const res = await app.request("/api/create-payment-intent");
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "POST");
    assert.deepEqual(await readJsonBody(res), { message: "Method not allowed" });
  } finally {
    await app.close();
  }
});

Deno.test("[auth] x-admin headers: a new password made on another isolate ends the old one at once", async () => {
  const dir = await Deno.makeTempDir();
  // Two handles on one file: two isolates, each with its own header-check cache.
  const here = await Deno.openKv(`${dir}/admins.kv`);
  const there = await Deno.openKv(`${dir}/admins.kv`);
  const opts = { checks: new Map() }; // this isolate's header checks (Services.adminChecks)
  try {
    await ensureAdmin(here, "admin", "first-password-123");
    const withPassword = (password: string) =>
      new Request("http://localhost/api/admin/session", {
        headers: { "x-admin-username": "admin", "x-admin-password": password },
      });
    assert.equal(
      (await getAdminFromRequest(withPassword("first-password-123"), here, null, opts))?.username,
      "admin",
    );
    await ensureAdmin(there, "admin", "second-password-456"); // e.g. a restart with a new password
    assert.equal(
      await getAdminFromRequest(withPassword("first-password-123"), here, null, opts),
      null,
      "the check this isolate made with the old password is not reused",
    );
    assert.equal(
      (await getAdminFromRequest(withPassword("second-password-456"), here, null, opts))?.username,
      "admin",
    );
  } finally {
    here.close();
    there.close();
    await Deno.remove(dir, { recursive: true });
  }
});
