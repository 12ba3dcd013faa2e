import assert from "node:assert/strict";
import type { OidcConfig } from "@/lib/auth/oidc.ts";
import { saveOAuthState, takeOAuthState } from "@/lib/auth/records/oauth_states.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import { freePort } from "@/tests/helpers/server.ts";
import {
  decodeJwt,
  generateSigningKey,
  loginAtProvider,
  signJwt,
  startTestProvider,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  type TestProvider,
} from "@/tests/helpers/oidc_provider.ts";

const CALLBACK = `${TEST_ORIGIN}/admin/oauth/callback`;

function oidcConfig(provider: TestProvider): OidcConfig {
  return {
    issuer: provider.issuer,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    adminEmails: ["boss@example.com", "@corp.test"],
    providerName: "Test IdP",
  };
}

/** The client address of the next requests (the login throttle counts refusals per address). */
let clientAddress = "198.51.100.1";
let addressCount = 1;

/** Moves on to a new client address, so one case's refusals do not throttle the next. */
function newClientAddress(): void {
  clientAddress = `198.51.100.${++addressCount}`;
}

/** A request to the app from `ip`. */
function get(app: TestApp, path: string, cookie = "", ip = clientAddress): Promise<Response> {
  const req = new Request(new URL(path, TEST_ORIGIN), { headers: cookie ? { cookie } : {} });
  return app.handler(req, {
    remoteAddr: { transport: "tcp", hostname: ip, port: 50_000 },
    completed: Promise.resolve(),
  });
}

/** Starts a sign-in at the app: the provider URL it redirects to and the flow cookie it set. */
async function startSignIn(app: TestApp): Promise<{ authUrl: URL; flowCookie: string }> {
  const res = await get(app, "/admin/oauth/signin");
  assert.equal(res.status, 303);
  const cookie = res.headers.get("set-cookie") ?? "";
  assert.match(
    cookie,
    /^admin_oauth=[0-9a-f]{48}; HttpOnly; SameSite=Lax; Path=\/admin\/oauth; Max-Age=600$/,
  );
  return { authUrl: new URL(res.headers.get("location")!), flowCookie: cookie.split(";")[0] };
}

/** Signs in at the provider as `email` and follows its redirect back to the app's callback. */
async function signIn(app: TestApp, email: string) {
  const { authUrl, flowCookie } = await startSignIn(app);
  const back = await loginAtProvider(authUrl.href, email);
  const res = await get(app, back.pathname + back.search, flowCookie);
  return { res, back, flowCookie, html: await res.text() };
}

function sessionCookieOf(res: Response): string | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("admin_session="));
  return line ? line.split(";")[0] : null;
}

async function countSessions(app: TestApp): Promise<number> {
  let n = 0;
  for await (const _ of app.kv.list({ prefix: ["sessions"] })) n++;
  return n;
}

/** Asserts a refused callback: the status, the reason on the page, no session anywhere. */
async function assertRefused(
  app: TestApp,
  outcome: { res: Response; html: string },
  status: number,
  reason: RegExp,
) {
  assert.equal(outcome.res.status, status, outcome.html);
  assert.match(outcome.html, /Sign-in Refused/);
  assert.match(outcome.html, reason);
  assert.equal(sessionCookieOf(outcome.res), null);
  assert.equal(await countSessions(app), 0);
}

async function withProvider(fn: (app: TestApp, provider: TestProvider) => Promise<void>) {
  newClientAddress();
  const provider = await startTestProvider([CALLBACK]);
  const app = await makeTestApp({ config: { oidc: oidcConfig(provider) } });
  try {
    await fn(app, provider);
  } finally {
    await app.close();
    await provider.close();
  }
}

Deno.test("[oidc] an allowed admin signs in through a real OpenID provider", async (t) => {
  await withProvider(async (app, provider) => {
    await t.step("the login page offers 'Sign in with Test IdP'", async () => {
      const html = await (await get(app, "/admin/login")).text();
      assert.match(html, /Sign in with Test IdP/);
      assert.match(html, /href="\/admin\/oauth\/signin"/);
    });
    await t.step(
      "sign-in sends the browser to the provider with PKCE, state and nonce",
      async () => {
        const { authUrl } = await startSignIn(app);
        assert.equal(authUrl.origin, provider.issuer);
        const q = authUrl.searchParams;
        assert.equal(q.get("client_id"), TEST_CLIENT_ID);
        assert.equal(q.get("redirect_uri"), CALLBACK);
        assert.equal(q.get("response_type"), "code");
        assert.equal(q.get("code_challenge_method"), "S256");
        assert.match(q.get("code_challenge") ?? "", /^[\w-]{43}$/);
        assert.match(q.get("state") ?? "", /^[\w-]{40,}$/);
        assert.match(q.get("nonce") ?? "", /^[\w-]{40,}$/);
        assert.match(q.get("scope") ?? "", /openid.*email/);
      },
    );
    await t.step(
      "the callback starts the admin session (same cookie as password logins)",
      async () => {
        const { res, html } = await signIn(app, "boss@example.com");
        assert.equal(res.status, 200, html);
        assert.match(html, /Signed in as boss@example\.com/);
        assert.match(html, /<meta http-equiv="refresh" content="0; url=\/admin\/dashboard"/);
        const line = res.headers.getSetCookie().find((c) => c.startsWith("admin_session="))!;
        assert.match(
          line,
          /^admin_session=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/,
        );
        assert.ok(res.headers.getSetCookie().some((c) => /^admin_oauth=; .*Max-Age=0/.test(c)));
        const session = await app.request("/api/admin/session", {
          headers: { cookie: sessionCookieOf(res)! },
        });
        assert.equal(session.status, 200);
        assert.deepEqual(await readJsonBody(session), { username: "boss@example.com" });
      },
    );
    await t.step("an @domain entry admits every address of the domain", async () => {
      const { res } = await signIn(app, "Ann@Corp.test");
      assert.equal(res.status, 200);
      assert.ok(sessionCookieOf(res));
    });
    await t.step("the flow is gone from KV once used", async () => {
      let n = 0;
      for await (const _ of app.kv.list({ prefix: ["oauth_states"] })) n++;
      assert.equal(n, 1); // only the unused flow of the PKCE step above
    });
  });
});

Deno.test("[oidc] refusals leave no session", async (t) => {
  const step = (name: string, fn: () => Promise<void>) =>
    t.step(name, () => {
      newClientAddress();
      return fn();
    });
  await withProvider(async (app, provider) => {
    await step("an e-mail not in OIDC_ADMIN_EMAILS is refused (403)", async () => {
      await assertRefused(
        app,
        await signIn(app, "intruder@example.com"),
        403,
        /intruder@example\.com is not allowed to administer this site/,
      );
    });
    await step("an unverified e-mail is refused (403)", async () => {
      await assertRefused(
        app,
        await signIn(app, "unverified+boss@example.com"),
        403,
        /has not verified the e-mail address boss@example\.com/,
      );
    });
    await step("a tampered state is refused, and the flow cannot be retried", async () => {
      const { authUrl, flowCookie } = await startSignIn(app);
      const back = await loginAtProvider(authUrl.href, "boss@example.com");
      const forged = new URL(back);
      forged.searchParams.set("state", "attacker-chosen-state-value");
      const res = await get(app, forged.pathname + forged.search, flowCookie);
      await assertRefused(app, { res, html: await res.text() }, 400, /could not be verified/);
      const retry = await get(app, back.pathname + back.search, flowCookie);
      await assertRefused(app, { res: retry, html: await retry.text() }, 400, /already used/);
    });
    await step("a callback without the browser's flow cookie is refused", async () => {
      const { authUrl } = await startSignIn(app);
      const back = await loginAtProvider(authUrl.href, "boss@example.com");
      const other = await startSignIn(app); // another browser's flow: another state
      const res = await get(app, back.pathname + back.search, other.flowCookie);
      await assertRefused(app, { res, html: await res.text() }, 400, /could not be verified/);
      const none = await get(app, back.pathname + back.search);
      await assertRefused(app, { res: none, html: await none.text() }, 400, /already used/);
    });
    await step("a replayed authorization code is refused", async () => {
      const first = await signIn(app, "boss@example.com");
      assert.equal(first.res.status, 200);
      await app.kv.delete(["sessions", sessionCookieOf(first.res)!.split("=")[1]]);
      const replay = await get(app, first.back.pathname + first.back.search, first.flowCookie);
      await assertRefused(app, { res: replay, html: await replay.text() }, 400, /already used/);
      // the old code grafted onto a fresh flow: the provider refuses it (used, other verifier)
      const fresh = await startSignIn(app);
      const grafted = new URL(first.back);
      grafted.searchParams.set("state", fresh.authUrl.searchParams.get("state")!);
      const res = await get(app, grafted.pathname + grafted.search, fresh.flowCookie);
      await assertRefused(app, { res, html: await res.text() }, 400, /invalid_grant/);
    });

    const resign = (change: (claims: Record<string, unknown>) => void) => (idToken: string) => {
      const claims = decodeJwt(idToken);
      change(claims);
      return signJwt(claims, provider.signingKey);
    };
    const now = () => Math.floor(Date.now() / 1000);
    const cases: [string, (idToken: string) => Promise<string>, RegExp][] = [
      ["a wrong nonce", resign((c) => c.nonce = "not-the-nonce-we-sent"), /nonce/],
      [
        "an expired ID token",
        resign((c) => Object.assign(c, { iat: now() - 7200, exp: now() - 3600 })),
        /exp/,
      ],
      ["another audience", resign((c) => c.aud = "someone-else"), /aud/],
      ["another issuer", resign((c) => c.iss = "https://evil.example"), /iss/],
      ["an ID token signed by another key", async (idToken) => {
        const stranger = await generateSigningKey(provider.signingKey.kid); // same kid, other key
        return signJwt(decodeJwt(idToken), stranger);
      }, /signature/i],
      ["an ID token whose claims were altered after signing", (idToken) => {
        const [head, , sig] = idToken.split(".");
        const claims = { ...decodeJwt(idToken), email: "boss@example.com" };
        const body = btoa(JSON.stringify(claims)).replace(/\+/g, "-").replace(/\//g, "_")
          .replace(/=+$/, "");
        return Promise.resolve(`${head}.${body}.${sig}`);
      }, /signature/i],
    ];
    for (const [name, tamper, reason] of cases) {
      await step(`${name} is refused`, async () => {
        provider.tamperIdToken = tamper;
        try {
          await assertRefused(app, await signIn(app, "boss@example.com"), 400, reason);
        } finally {
          provider.tamperIdToken = null;
        }
      });
    }
    await step(
      "the untouched token still signs in (the cases above were the only change)",
      async () => {
        provider.tamperIdToken = resign(() => {}); // re-signed with the provider's key, unchanged
        try {
          const { res } = await signIn(app, "boss@example.com");
          assert.equal(res.status, 200);
        } finally {
          provider.tamperIdToken = null;
        }
      },
    );
  });
});

Deno.test("[oidc] refused sign-ins count toward the address's login throttle", async () => {
  await withProvider(async (app) => {
    for (let i = 0; i < 5; i++) {
      const { res } = await signIn(app, `intruder${i}@example.com`);
      assert.equal(res.status, 403);
    }
    const { res, html } = await signIn(app, "boss@example.com");
    assert.equal(res.status, 429);
    assert.match(html, /Too many failed login attempts/);
    assert.equal(sessionCookieOf(res), null);
  });
});

Deno.test("[oidc] starting sign-ins is rate limited per address (20 per 10 minutes)", async () => {
  await withProvider(async (app) => {
    for (let i = 0; i < 20; i++) {
      const res = await get(app, "/admin/oauth/signin");
      assert.equal(res.status, 303);
      await res.body?.cancel();
    }
    const res = await get(app, "/admin/oauth/signin");
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    assert.equal(res.headers.get("set-cookie"), null);
    assert.match(await res.text(), /Too many sign-in attempts from this address/);
    const other = await get(app, "/admin/oauth/signin", "", "203.0.113.99");
    assert.equal(other.status, 303);
    await other.body?.cancel();
  });
});

Deno.test("[oidc] an unreachable provider shows 'Sign-in Unavailable' (502)", async () => {
  const unreachable = { issuer: `http://127.0.0.1:${freePort()}` } as TestProvider;
  const oidc = { ...oidcConfig(unreachable), providerName: "Down IdP" };
  const app = await makeTestApp({ config: { oidc } });
  try {
    const res = await app.request("/admin/oauth/signin");
    assert.equal(res.status, 502);
    assert.match(await res.text(), /Down IdP could not be reached/);
  } finally {
    await app.close();
  }
});

Deno.test("[oidc] without OIDC settings there is no provider button and no sign-in route", async () => {
  const app = await makeTestApp();
  try {
    const html = await (await app.request("/admin/login")).text();
    assert.doesNotMatch(html, /Sign in with/);
    const res = await app.request("/admin/oauth/signin");
    assert.equal(res.status, 404);
    await res.body?.cancel();
    const cb = await app.request("/admin/oauth/callback?code=x&state=y");
    assert.equal(cb.status, 404);
    await cb.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[oidc] a stored flow is readable once and expires", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const flow = { state: "s", codeVerifier: "v", nonce: "n", redirectUri: CALLBACK };
    await saveOAuthState(kv, "one", flow, 60_000);
    assert.deepEqual(await takeOAuthState(kv, "one"), flow);
    assert.equal(await takeOAuthState(kv, "one"), null);
    await saveOAuthState(kv, "two", flow, 1);
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(await takeOAuthState(kv, "two"), null);
  } finally {
    kv.close();
  }
});
