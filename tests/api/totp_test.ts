import assert from "node:assert/strict";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { ensureAdmin } from "@/lib/auth/admins.ts";
import {
  generateRecoveryCodes,
  hashRecoveryCode,
  matchTotpStep,
  totpCode,
  totpStep,
} from "@/lib/auth/totp.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { loginCookie, TEST_ADMIN } from "@/tests/helpers/fixtures.ts";
import { wrongCode } from "@/tests/helpers/totp.ts";

function post(app: TestApp, path: string, body: unknown, headers: HeadersInit = {}) {
  return app.request(path, { method: "POST", json: body, headers });
}

function sessionCookie(res: Response): string {
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  assert.match(cookie, /^admin_session=[0-9a-f]{64}$/);
  return cookie;
}

/** Enrols the test admin's authenticator; returns its secret, recovery codes and a session. */
async function enrol(app: TestApp) {
  const cookie = await loginCookie(app);
  const setup = await readJsonBody(await post(app, "/api/admin/2fa/setup", {}, { cookie }));
  const secret = decodeBase32IgnorePadding(setup.secret);
  const step = totpStep(Date.now());
  const res = await post(app, "/api/admin/2fa/confirm", { code: totpCode(secret, step) }, {
    cookie,
  });
  assert.equal(res.status, 200);
  const { recoveryCodes } = await readJsonBody<{ recoveryCodes: string[] }>(res);
  return { secret, step, recoveryCodes, cookie: sessionCookie(res) };
}

Deno.test("[totp] codes follow RFC 6238 (SHA-1, 30 s) and allow one step of drift", () => {
  const secret = new TextEncoder().encode("12345678901234567890");
  assert.equal(totpCode(secret, 1), "287082"); // RFC 6238 appendix B, T = 59 s, 6 digits
  assert.equal(totpCode(secret, totpStep(1111111109_000)), "081804");
  const now = 1111111109_000;
  const step = totpStep(now);
  assert.equal(matchTotpStep(secret, totpCode(secret, step), now), step);
  assert.equal(matchTotpStep(secret, totpCode(secret, step - 1), now), step - 1);
  assert.equal(matchTotpStep(secret, totpCode(secret, step + 1), now), step + 1);
  assert.equal(matchTotpStep(secret, totpCode(secret, step - 2), now), null);
  assert.equal(matchTotpStep(secret, totpCode(secret, step + 2), now), null);
  assert.equal(matchTotpStep(secret, "12345", now), null);
});

Deno.test("[totp] recovery codes are random and hashed ignoring case and dashes", async () => {
  const codes = generateRecoveryCodes();
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10);
  for (const code of codes) assert.match(code, /^[a-z2-7]{5}-[a-z2-7]{5}$/);
  const hash = await hashRecoveryCode(codes[0]);
  assert.equal(await hashRecoveryCode(` ${codes[0].toUpperCase().replace("-", "")} `), hash);
  assert.notEqual(await hashRecoveryCode(codes[1]), hash);
});

Deno.test("[totp] enrolment shows a QR code once and needs a first good code", async (t) => {
  const app = await makeTestApp();
  try {
    const cookie = await loginCookie(app);
    const res = await post(app, "/api/admin/2fa/setup", {}, { cookie });
    assert.equal(res.status, 200);
    const setup = await readJsonBody(res);
    await t.step("the QR code is an SVG data URL of the otpauth URI", () => {
      assert.match(setup.qrCode, /^data:image\/svg\+xml;base64,/);
      const svg = atob(setup.qrCode.split(",")[1]);
      assert.match(svg, /^<svg[^>]*viewBox/);
      assert.match(setup.uri, /^otpauth:\/\/totp\/Fantasy%20Contests:admin\?/);
      assert.match(setup.uri, new RegExp(`secret=${setup.secret}`));
      assert.equal(decodeBase32IgnorePadding(setup.secret).length, 20);
    });
    const secret = decodeBase32IgnorePadding(setup.secret);
    let renewed = "";
    await t.step("a wrong first code → 400 on `code`, nothing enabled", async () => {
      const bad = await post(app, "/api/admin/2fa/confirm", { code: wrongCode(secret) }, {
        cookie,
      });
      assert.equal(bad.status, 400);
      const body = await readJsonBody(bad);
      assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path), [["code"]]);
      const login = await post(app, "/api/admin/login", TEST_ADMIN);
      assert.equal(login.status, 200); // still no second factor
      await login.body?.cancel();
    });
    await t.step(
      "the current code confirms it; ten recovery codes, kept only as hashes",
      async () => {
        const ok = await post(app, "/api/admin/2fa/confirm", {
          code: totpCode(secret, totpStep(Date.now())),
        }, { cookie });
        assert.equal(ok.status, 200);
        renewed = sessionCookie(ok);
        const { recoveryCodes } = await readJsonBody<{ recoveryCodes: string[] }>(ok);
        assert.equal(recoveryCodes.length, 10);
        const stored: string[] = [];
        for await (const e of app.kv.list({ prefix: [] })) stored.push(JSON.stringify(e));
        for (const code of recoveryCodes) assert.ok(!stored.some((s) => s.includes(code)));
      },
    );
    await t.step("the set-up cannot be confirmed twice", async () => {
      const again = await post(app, "/api/admin/2fa/confirm", {
        code: totpCode(secret, totpStep(Date.now()) + 1),
      }, { cookie: renewed });
      assert.equal(again.status, 400);
      assert.match((await readJsonBody(again)).message, /expired/);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[totp] a password login then needs a fresh code: wrong and replayed codes refused", async (t) => {
  const app = await makeTestApp();
  try {
    const { secret, step } = await enrol(app);
    await t.step("password alone → 401 twoFactorRequired, no cookie", async () => {
      const res = await post(app, "/api/admin/login", TEST_ADMIN);
      assert.equal(res.status, 401);
      assert.equal(res.headers.get("set-cookie"), null);
      const body = await readJsonBody(res);
      assert.equal(body.twoFactorRequired, true);
      assert.equal(body.message, "Enter the 6-digit code from your authenticator app");
    });
    await t.step("the code used to confirm the set-up is not accepted again", async () => {
      const res = await post(app, "/api/admin/login", {
        ...TEST_ADMIN,
        code: totpCode(secret, step),
      });
      assert.equal(res.status, 401);
      assert.equal((await readJsonBody(res)).message, "Invalid authentication code");
      assert.equal(res.headers.get("set-cookie"), null);
    });
    const next = totpCode(secret, step + 1);
    await t.step("a wrong code → 401, no cookie", async () => {
      const res = await post(app, "/api/admin/login", { ...TEST_ADMIN, code: wrongCode(secret) });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get("set-cookie"), null);
      await res.body?.cancel();
    });
    await t.step("a wrong password with a good code → 401 'Invalid credentials'", async () => {
      const res = await post(app, "/api/admin/login", {
        username: TEST_ADMIN.username,
        password: "nope",
        code: next,
      });
      assert.equal(res.status, 401);
      assert.equal((await readJsonBody(res)).message, "Invalid credentials");
    });
    await t.step("password and the next code → 200 with the session cookie", async () => {
      const res = await post(app, "/api/admin/login", { ...TEST_ADMIN, code: next });
      assert.equal(res.status, 200);
      const cookie = sessionCookie(res);
      const session = await app.request("/api/admin/session", { headers: { cookie } });
      assert.equal(session.status, 200);
      await session.body?.cancel();
    });
    await t.step("the same code replayed → 401", async () => {
      const res = await post(app, "/api/admin/login", { ...TEST_ADMIN, code: next });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get("set-cookie"), null);
      await res.body?.cancel();
    });
  } finally {
    await app.close();
  }
});

Deno.test("[totp] a recovery code logs in once", async () => {
  const app = await makeTestApp();
  try {
    const { recoveryCodes } = await enrol(app);
    const first = await post(app, "/api/admin/login", { ...TEST_ADMIN, code: recoveryCodes[3] });
    assert.equal(first.status, 200);
    sessionCookie(first);
    const again = await post(app, "/api/admin/login", { ...TEST_ADMIN, code: recoveryCodes[3] });
    assert.equal(again.status, 401);
    assert.equal(again.headers.get("set-cookie"), null);
    await again.body?.cancel();
    const other = await post(app, "/api/admin/login", {
      ...TEST_ADMIN,
      code: recoveryCodes[4].toUpperCase(),
    });
    assert.equal(other.status, 200);
    await other.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[totp] five wrong codes throttle the admin (429), and the password does not reset it", async () => {
  const app = await makeTestApp();
  try {
    const { secret, step } = await enrol(app);
    for (let i = 0; i < 5; i++) {
      const res = await post(app, "/api/admin/login", { ...TEST_ADMIN, code: wrongCode(secret) });
      assert.equal(res.status, 401);
      await res.body?.cancel();
      const codeless = await post(app, "/api/admin/login", TEST_ADMIN); // right password
      assert.equal(codeless.status, 401);
      await codeless.body?.cancel();
    }
    const res = await post(app, "/api/admin/login", {
      ...TEST_ADMIN,
      code: totpCode(secret, step + 1),
    });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    assert.equal(res.headers.get("set-cookie"), null);
    await res.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[totp] the admin headers work only while no second factor is required", async (t) => {
  const headers = {
    "x-admin-username": TEST_ADMIN.username,
    "x-admin-password": TEST_ADMIN.password,
  };
  await t.step("without an authenticator the headers open the API", async () => {
    const app = await makeTestApp();
    try {
      await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
      const res = await app.request("/api/admin/competitions", { headers });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      await enrol(app);
      const after = await app.request("/api/admin/competitions", { headers });
      assert.equal(after.status, 401);
      await after.body?.cancel();
    } finally {
      await app.close();
    }
  });
  await t.step("with ADMIN_REQUIRE_2FA=1 they never do", async () => {
    const app = await makeTestApp({ config: { adminRequire2fa: true } });
    try {
      await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
      const res = await app.request("/api/admin/competitions", { headers });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    } finally {
      await app.close();
    }
  });
});

Deno.test("[totp] ADMIN_REQUIRE_2FA sends an admin without authenticator to set one up", async (t) => {
  const app = await makeTestApp({ config: { adminRequire2fa: true } });
  try {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    const res = await post(app, "/api/admin/login", TEST_ADMIN);
    assert.equal(res.status, 200);
    const limited = sessionCookie(res);
    assert.deepEqual(await readJsonBody(res), { username: "admin", mustEnrolTotp: true });
    await t.step("the limited session opens only the set-up", async () => {
      const api = await app.request("/api/admin/competitions", { headers: { cookie: limited } });
      assert.equal(api.status, 403);
      assert.equal((await readJsonBody(api)).message, "Set up two-factor authentication first");
      const page = await app.request("/admin/dashboard", { headers: { cookie: limited } });
      assert.equal(page.status, 303);
      assert.equal(page.headers.get("location"), "/admin/2fa");
      const setupPage = await app.request("/admin/2fa", { headers: { cookie: limited } });
      assert.equal(setupPage.status, 200);
      assert.match(await setupPage.text(), /This site requires two-factor authentication/);
    });
    let full = "";
    await t.step("confirming renews the session as a full one; the limited one ends", async () => {
      const setup = await readJsonBody(
        await post(app, "/api/admin/2fa/setup", {}, { cookie: limited }),
      );
      const secret = decodeBase32IgnorePadding(setup.secret);
      const ok = await post(app, "/api/admin/2fa/confirm", {
        code: totpCode(secret, totpStep(Date.now())),
      }, { cookie: limited });
      assert.equal(ok.status, 200);
      full = sessionCookie(ok);
      await ok.body?.cancel();
      const api = await app.request("/api/admin/competitions", { headers: { cookie: full } });
      assert.equal(api.status, 200);
      await api.body?.cancel();
      const old = await app.request("/api/admin/competitions", { headers: { cookie: limited } });
      assert.equal(old.status, 401);
      await old.body?.cancel();
    });
    await t.step("it cannot be turned off", async () => {
      const res = await post(app, "/api/admin/2fa/disable", { code: "123456" }, { cookie: full });
      assert.equal(res.status, 403);
      await res.body?.cancel();
    });
  } finally {
    await app.close();
  }
});

Deno.test("[totp] turning it off needs a good code; then the password suffices again", async () => {
  const app = await makeTestApp();
  try {
    const { secret, step, cookie } = await enrol(app);
    const bad = await post(app, "/api/admin/2fa/disable", { code: wrongCode(secret) }, { cookie });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
    const ok = await post(app, "/api/admin/2fa/disable", { code: totpCode(secret, step + 1) }, {
      cookie,
    });
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const login = await post(app, "/api/admin/login", TEST_ADMIN);
    assert.equal(login.status, 200);
    await login.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[totp] the set-up refuses cross-site requests (CSRF)", async () => {
  const app = await makeTestApp();
  try {
    const cookie = await loginCookie(app);
    for (
      const path of ["/api/admin/2fa/setup", "/api/admin/2fa/confirm", "/api/admin/2fa/disable"]
    ) {
      const res = await post(app, path, { code: "123456" }, {
        cookie,
        "sec-fetch-site": "cross-site",
      });
      assert.equal(res.status, 403, path);
      await res.body?.cancel();
    }
  } finally {
    await app.close();
  }
});
