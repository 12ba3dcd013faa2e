/**
 * Security review tests: static files and framework assets, escaping of hostile names in pages,
 * island state and e-mail, security headers, admin session handling, CSRF, login throttling,
 * the WebSocket origin check, public information leaks and payment invariants.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ensureAdmin } from "@/lib/auth/admins.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { MAX_LOGIN_FAILURES } from "@/lib/auth/throttle.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  loginCookie,
  makeAdminHeaders,
  makeCompetition,
  makeEntry,
  payTestIntent,
  TEST_ADMIN,
} from "@/tests/helpers/fixtures.ts";
import { startFakeStripe } from "@/tests/helpers/fake_stripe.ts";
import { freePort } from "@/tests/helpers/server.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";
import { fixtureHandler } from "@/tests/unit/fresh/helpers.ts";

const XSS = `<img src=x onerror=alert(1)>`;
const SCRIPT_BREAK = `</script><script>alert(2)</script>`;
const HOSTILE = `${XSS}${SCRIPT_BREAK}"'&`;

/** Serves `handler` on a loopback port, for requests whose raw target `fetch` would normalise. */
function serve(handler: (req: Request) => Response | Promise<Response>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { port: server.addr.port, stop: () => server.shutdown() };
}

/** Sends `GET <target>` exactly as written over a raw socket; returns status line and body. */
async function rawGet(port: number, target: string): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const request = `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
    await conn.write(new TextEncoder().encode(request));
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(16 * 1024);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
    }
    const text = new TextDecoder().decode(
      chunks.reduce((all, c) => new Uint8Array([...all, ...c]), new Uint8Array()),
    );
    return { status: Number(text.split(" ")[1]), body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } finally {
    conn.close();
  }
}

async function withApp(fn: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await makeTestApp();
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

Deno.test("[security] static files and /_frsh/js assets cannot be escaped from", async (t) => {
  await withApp(async (app) => {
    const server = serve((req) => app.handler(req));
    try {
      await t.step("traversal, encoded dots and slashes, backslashes, null bytes", async () => {
        const targets = [
          "/../deno.json",
          "/../../../../etc/passwd",
          "/crests/../../deno.json",
          "/%2e%2e/deno.json",
          "/crests/%2E%2E/%2e%2e/deno.json",
          "/crests/..%2f..%2fdeno.json",
          "/crests%2f..%2f..%2fdeno.json",
          "/crests\\..\\..\\deno.json",
          "/..%5c..%5cdeno.json",
          "/logo.svg%00.json",
          "/deno.json%00",
          "/_frsh/js/../../deno.json",
          "/_frsh/js/x/..%2f..%2f..%2fdeno.json",
          "/_frsh/js/%2e%2e/%2e%2e/deno.json",
          "/static/logo.svg",
          "/main.ts",
          "/.env",
        ];
        for (const target of targets) {
          const { status, body } = await rawGet(server.port, target);
          assert.ok(status === 404 || status === 400, `${target} answered ${status}`);
          assert.ok(!body.includes("nodeModulesDir"), `${target} leaked deno.json`);
          assert.ok(!body.includes("root:x:0"), `${target} leaked /etc/passwd`);
        }
      });
      await t.step("no directory listings", async () => {
        for (const target of ["/crests", "/_frsh/js/", "/_frsh/"]) {
          assert.equal((await rawGet(server.port, target)).status, 404, target);
        }
        const slash = await app.request("/crests/");
        assert.equal(slash.status, 307);
        assert.equal(slash.headers.get("location"), "/crests");
      });
      await t.step("a very long path is a quick 404, never a 500", async () => {
        const res = await app.request("/" + "a/".repeat(20_000) + "x.svg");
        assert.equal(res.status, 404);
        await res.body?.cancel();
      });
    } finally {
      await server.stop();
    }
  });
});

Deno.test("[security] static answers: MIME types, nosniff, HEAD and conditional GET", async (t) => {
  await withApp(async (app) => {
    await t.step("a static SVG", async () => {
      const res = await app.request("/logo.svg");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "image/svg+xml");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      const etag = res.headers.get("etag")!;
      assert.match(etag, /^"[0-9a-f]+"$/);
      const bytes = (await res.arrayBuffer()).byteLength;

      const head = await app.request("/logo.svg", { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get("content-length"), String(bytes));
      assert.equal(await head.text(), "");

      const again = await app.request("/logo.svg", { headers: { "if-none-match": etag } });
      assert.equal(again.status, 304);
      assert.equal(await again.text(), "");
      const other = await app.request("/logo.svg", { headers: { "if-none-match": '"nope"' } });
      assert.equal(other.status, 200);
      await other.body?.cancel();
    });
    await t.step("an island chunk is JavaScript, immutable and nosniff", async () => {
      const html = await (await app.request("/")).text();
      const chunk = html.match(/\/_frsh\/js\/[^"]+\.js/)![0];
      const res = await app.request(chunk);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "text/javascript");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
      await res.body?.cancel();
      const head = await app.request(chunk, { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), "");
      const post = await app.request(chunk, { method: "POST" });
      assert.equal(post.status, 404);
      await post.body?.cancel();
      const wrongBuild = await app.request(chunk.replace(/js\/[^/]+\//, "js/0000/"));
      assert.equal(wrongBuild.status, 404);
      await wrongBuild.body?.cancel();
    });
  });
});

Deno.test("[security] symlinks in static/ are never followed out of it", async () => {
  const root = await Deno.makeTempDir({ prefix: "static_symlink_" });
  const staticDir = join(root, "static");
  const outside = join(root, "outside");
  await Deno.mkdir(staticDir);
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "secret.txt"), "TOP SECRET");
  await Deno.writeTextFile(join(staticDir, "ok.txt"), "public");
  await Deno.symlink(join(outside, "secret.txt"), join(staticDir, "secret.txt"));
  await Deno.symlink(outside, join(staticDir, "linked"));
  try {
    const handler = await fixtureHandler({ staticDir });
    const get = (path: string) => handler(new Request(new URL(path, "http://localhost")));
    const ok = await get("/ok.txt");
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "public");
    for (const path of ["/secret.txt", "/linked/secret.txt"]) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.ok(!(await res.text()).includes("TOP SECRET"), path);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Teams, players, a competition and an entry named with HTML, made through the admin API. */
async function hostileContest(app: TestApp) {
  const headers = await makeAdminHeaders(app.kv);
  const post = async (path: string, json: unknown) => {
    const res = await app.request(path, { method: "POST", json, headers });
    assert.ok(res.status < 300, `${path}: ${res.status}`);
    return await res.json();
  };
  const teams = [
    await post("/api/admin/teams", { name: `A ${HOSTILE}`, shortName: "AAA", league: "LA_LIGA" }),
    await post("/api/admin/teams", { name: `B ${HOSTILE}`, shortName: "BBB", league: "LA_LIGA" }),
  ];
  const squad = [[0, "GK"], [0, "DEF"], [0, "MID"], [1, "DEF"], [1, "FWD"]] as const;
  const playerIds: number[] = [];
  for (const [team, position] of squad) {
    const body = { name: `${position} ${HOSTILE}`, position, salary: 1000, teamId: teams[team].id };
    playerIds.push((await post("/api/admin/players", body)).id);
  }
  const competition = await post("/api/admin/competitions", {
    name: `Cup ${HOSTILE}`,
    description: `About ${HOSTILE}`,
    league: "LA_LIGA",
    entryFee: 5,
    prizePool: 100,
    prizeType: "NON_CASH",
    customPrizeDescription: `Prize ${HOSTILE}`,
    deadline: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await post(`/api/admin/competitions/${competition.id}/players`, { playerIds });
  const paymentId = await payTestIntent(app, competition.id);
  const entryRes = await app.request("/api/entries", {
    method: "POST",
    json: {
      competitionId: competition.id,
      email: "victim@example.com",
      teamName: XSS,
      playerIds,
      stripePaymentId: paymentId,
    },
  });
  assert.equal(entryRes.status, 201);
  const entry = await entryRes.json();
  await updateCompetition(app.kv, competition.id, { status: "LIVE" });
  await createGameEvent(app.kv, competition.id, {
    playerId: playerIds[0],
    eventType: "GOAL",
    description: `Event ${HOSTILE}`,
    minute: 10,
  });
  return { competition, entry, paymentId };
}

/** Fails when `html` carries markup from the hostile names, or island state that ends early. */
function assertNoInjectedMarkup(html: string, where: string): void {
  assert.ok(!html.includes("<img src=x"), `${where}: raw <img> from data`);
  assert.ok(!html.includes("<script>alert"), `${where}: raw <script> from data`);
  const scripts = html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? [];
  for (const script of scripts) {
    const body = script.replace(/^<script\b[^>]*>/, "").replace(/<\/script>$/, "");
    assert.ok(!/<\/?script/i.test(body), `${where}: a script element holds "<script"`);
    if (/\btype="application\/json"/.test(script)) JSON.parse(body); // must stay valid JSON
  }
}

Deno.test("[security] hostile names are escaped in pages, island state and e-mail", async (t) => {
  await withApp(async (app) => {
    const { competition, entry } = await hostileContest(app);
    const cookie = await loginCookie(app);
    const cid = competition.id;
    await t.step("public pages", async () => {
      const pages = [
        "/",
        `/team-selection/${cid}`,
        `/payment/${cid}`,
        `/confirmation/${entry.teamId}`,
        `/leaderboard/${cid}`,
      ];
      for (const path of pages) {
        const res = await app.request(path);
        assert.equal(res.status, 200, path);
        const html = await res.text();
        assertNoInjectedMarkup(html, path);
        assert.ok(html.includes("&lt;img src=x") || html.includes("\\u003cimg src=x"), path);
      }
    });
    await t.step("admin pages", async () => {
      const pages = [
        "/admin/dashboard",
        `/admin/competitions/${cid}/events`,
        `/admin/competitions/${cid}/players`,
        `/admin/competitions/${cid}/prizes`,
        `/admin/competitions/edit/${cid}`,
        "/admin/player-performances",
      ];
      for (const path of pages) {
        const res = await app.request(path, { headers: { cookie } });
        assert.equal(res.status, 200, path);
        assertNoInjectedMarkup(await res.text(), path);
      }
    });
    await t.step("the confirmation e-mail escapes every name in its HTML", async () => {
      const [mail] = await listOutbox(app.kv);
      assert.equal(mail.to, "victim@example.com");
      assert.ok(mail.html, "the e-mail has an HTML body");
      assertNoInjectedMarkup(mail.html!, "e-mail");
      assert.ok(mail.html!.includes("&#60;img src=x onerror=alert(1)&#62;"));
      assert.ok(!/<(?!\/?(p|strong|ul|li|a)\b)/.test(mail.html!), "only the template's tags");
    });
  });
});

Deno.test("[security] every response carries a strict CSP and the security headers", async (t) => {
  await withApp(async (app) => {
    const paths = ["/", "/admin/login", "/api/competitions", "/logo.svg", "/nope", "/healthz"];
    for (const path of paths) {
      await t.step(path, async () => {
        const res = await app.request(path);
        await res.body?.cancel();
        const csp = res.headers.get("content-security-policy") ?? "";
        const directive = (name: string) =>
          csp.split(";").map((d) => d.trim()).find((d) => d.startsWith(name + " ")) ?? "";
        assert.ok(directive("script-src"), "script-src is set");
        assert.ok(!/unsafe-(inline|eval)|data:|\*(?!\.)/.test(directive("script-src")));
        assert.equal(directive("object-src"), "object-src 'none'");
        assert.equal(directive("base-uri"), "base-uri 'self'");
        assert.equal(directive("form-action"), "form-action 'self'");
        assert.equal(directive("frame-ancestors"), "frame-ancestors 'none'");
        assert.equal(directive("default-src"), "default-src 'self'");
        assert.equal(res.headers.get("x-content-type-options"), "nosniff");
        assert.equal(res.headers.get("x-frame-options"), "DENY");
        assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
        assert.equal(res.headers.get("strict-transport-security"), null, "no HSTS on http");
      });
    }
  });
});

Deno.test("[security] HSTS over https, directly or through a TLS proxy", async () => {
  await withApp(async (app) => {
    const direct = await app.handler(new Request("https://contest.example/"));
    await direct.body?.cancel();
    assert.equal(
      direct.headers.get("strict-transport-security"),
      "max-age=63072000; includeSubDomains",
    );
    const proxied = await app.request("/api/competitions", {
      headers: { "x-forwarded-proto": "https" },
    });
    await proxied.body?.cancel();
    assert.match(proxied.headers.get("strict-transport-security") ?? "", /max-age=63072000/);
  });
});

Deno.test("[security] admin pages and admin API answers are never cached", async (t) => {
  await withApp(async (app) => {
    const cookie = await loginCookie(app);
    await t.step("pages, logged in or not", async () => {
      for (
        const [path, headers] of [
          ["/admin/dashboard", { cookie }],
          ["/admin/matches", { cookie }],
          ["/admin/login", {}],
          ["/admin/dashboard", {}],
        ] as const
      ) {
        const res = await app.request(path, { headers, redirect: "manual" });
        await res.body?.cancel();
        assert.equal(res.headers.get("cache-control"), "no-store", path);
      }
    });
    await t.step("API answers, errors included", async () => {
      for (
        const [path, headers] of [
          ["/api/admin/session", { cookie }],
          ["/api/admin/competitions", { cookie }],
          ["/api/admin/competitions", {}],
          ["/api/admin/competitions/abc", { cookie }],
        ] as const
      ) {
        const res = await app.request(path, { headers });
        await res.body?.cancel();
        assert.equal(res.headers.get("cache-control"), "no-store", path);
      }
    });
  });
});

Deno.test("[security] cross-site writes to the admin API are refused (CSRF)", async (t) => {
  await withApp(async (app) => {
    const cookie = await loginCookie(app);
    const create = (headers: Record<string, string>) =>
      app.request("/api/admin/teams", {
        method: "POST",
        json: { name: "Forged FC", shortName: "FRG", league: "LA_LIGA" },
        headers: { cookie, ...headers },
      });
    const refusals: [string, Record<string, string>][] = [
      ["Sec-Fetch-Site cross-site", { "sec-fetch-site": "cross-site" }],
      ["Sec-Fetch-Site same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
      ["another Origin", { origin: "https://evil.example" }],
      ["Origin null", { origin: "null" }],
      ["same host, another port", { origin: "http://localhost:8080" }],
    ];
    for (const [name, headers] of refusals) {
      await t.step(`${name} → 403`, async () => {
        const res = await create(headers);
        assert.equal(res.status, 403);
        assert.deepEqual(await readJsonBody(res), {
          message: "Cross-site requests are not allowed",
        });
      });
    }
    await t.step("a cross-site logout or login is refused too", async () => {
      for (const path of ["/api/admin/logout", "/api/admin/login"]) {
        const res = await app.request(path, {
          method: "POST",
          json: TEST_ADMIN,
          headers: { cookie, origin: "https://evil.example" },
        });
        assert.equal(res.status, 403, path);
        await res.body?.cancel();
      }
      const still = await app.request("/api/admin/session", { headers: { cookie } });
      assert.equal(still.status, 200);
      await still.body?.cancel();
    });
    await t.step("same-origin browsers and API clients without Origin are served", async () => {
      const sameOrigin = await create({
        origin: "http://localhost",
        "sec-fetch-site": "same-origin",
      });
      assert.equal(sameOrigin.status, 201);
      await sameOrigin.body?.cancel();
      const noOrigin = await app.request("/api/admin/teams", {
        method: "POST",
        json: { name: "Client FC", shortName: "CLI", league: "LA_LIGA" },
        headers: await makeAdminHeaders(app.kv),
      });
      assert.equal(noOrigin.status, 201);
      await noOrigin.body?.cancel();
    });
    await t.step("cross-site reads are not writes: GET still answers", async () => {
      const res = await app.request("/api/admin/teams", {
        headers: { cookie, "sec-fetch-site": "cross-site" },
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
    });
  });
});

Deno.test("[security] parallel password guesses cannot outrun the login throttle", async () => {
  await withApp(async (app) => {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.request("/api/admin/login", {
          method: "POST",
          json: { username: i % 2 ? "ADMIN" : " admin", password: `guess-${i}` },
        })),
    );
    const statuses = guesses.map((res) => res.status);
    await Promise.all(guesses.map((res) => res.body?.cancel()));
    const checked = statuses.filter((s) => s === 401).length;
    assert.ok(checked <= MAX_LOGIN_FAILURES, `${checked} passwords were checked`);
    assert.equal(statuses.filter((s) => s === 429).length, 20 - checked);
    const right = await app.request("/api/admin/login", { method: "POST", json: TEST_ADMIN });
    assert.equal(right.status, checked === MAX_LOGIN_FAILURES ? 429 : 200);
    await right.body?.cancel();
  });
});

Deno.test("[security] a login replaces the session the browser had", async () => {
  await withApp(async (app) => {
    const first = await loginCookie(app);
    const res = await app.request("/api/admin/login", {
      method: "POST",
      json: TEST_ADMIN,
      headers: { cookie: first },
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    const second = res.headers.get("set-cookie")!.split(";")[0];
    assert.notEqual(second, first);
    const old = await app.request("/api/admin/session", { headers: { cookie: first } });
    assert.equal(old.status, 401);
    await old.body?.cancel();
    const fresh = await app.request("/api/admin/session", { headers: { cookie: second } });
    assert.equal(fresh.status, 200);
    await fresh.body?.cancel();
  });
});

Deno.test("[security] session cookies: forged, malformed or logged-out tokens open nothing", async () => {
  await withApp(async (app) => {
    const cookie = await loginCookie(app);
    const forged = [
      "admin_session=" + "0".repeat(64),
      "admin_session=../../x",
      "admin_session=" + "a".repeat(5000),
      "admin_session=",
      cookie.toUpperCase(),
    ];
    for (const value of forged) {
      const res = await app.request("/api/admin/session", { headers: { cookie: value } });
      assert.equal(res.status, 401, value.slice(0, 40));
      await res.body?.cancel();
    }
    const out = await app.request("/api/admin/logout", { method: "POST", headers: { cookie } });
    await out.body?.cancel();
    const page = await app.request("/admin/dashboard", { headers: { cookie }, redirect: "manual" });
    assert.equal(page.status, 303);
    assert.equal(page.headers.get("location"), "/admin/login?auth=required");
    await page.body?.cancel();
  });
});

Deno.test("[security] /ws refuses pages of other sites", async (t) => {
  await withApp(async (app) => {
    const handshake = {
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
    };
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of crossSite) {
      await t.step(JSON.stringify(headers), async () => {
        const res = await app.request("/ws", { headers: { ...handshake, ...headers } });
        assert.equal(res.status, 403);
        assert.deepEqual(await readJsonBody(res), {
          message: "Cross-site WebSocket connections are not allowed",
        });
      });
    }
    await t.step("a same-origin socket still connects", async () => {
      const server = serve((req) => app.handler(req));
      const origin = `http://127.0.0.1:${server.port}`;
      try {
        // Deno's WebSocket takes extra handshake headers (a browser sets Origin itself).
        const init = { headers: { origin } } as unknown as string[];
        const socket = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, init);
        const closed = new Promise((resolve) => socket.addEventListener("close", resolve));
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          await new Promise((resolve, reject) => {
            socket.onopen = resolve;
            socket.onerror = () => reject(new Error("the same-origin socket was refused"));
            timer = setTimeout(() => reject(new Error("the socket did not open")), 5000);
          });
        } finally {
          clearTimeout(timer);
          socket.close();
          await closed;
        }
      } finally {
        await server.stop();
      }
    });
  });
});

Deno.test("[security] public answers carry no e-mail address or payment id", async () => {
  await withApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const paymentId = await payTestIntent(app, c.id);
    const created = await app.request("/api/entries", {
      method: "POST",
      json: { ...entryBody(c, paymentId), email: "jane.doe@example.com" },
    });
    assert.equal(created.status, 201);
    const createdText = await created.text();
    const { teamId } = JSON.parse(createdText);
    await makeEntry(app.kv, c, { email: "other.fan@example.com" });
    await updateCompetition(app.kv, c.id, { status: "LIVE" });
    const paths = [
      "/api/competitions",
      `/api/competitions/${c.id}`,
      `/api/competitions/${c.id}/leaderboard`,
      `/api/competitions/${c.id}/events`,
      `/api/competitions/${c.id}/prizes`,
      `/api/competitions/${c.id}/players`,
      `/api/entries/${teamId}`,
      `/api/entries/${teamId}/details`,
      `/api/entries/${teamId}/players`,
      `/leaderboard/${c.id}`,
      `/confirmation/${teamId}`,
    ];
    for (
      const text of [
        createdText,
        ...await Promise.all(paths.map(async (p) => await (await app.request(p)).text())),
      ]
    ) {
      assert.ok(!text.includes("jane.doe@example.com"), "full e-mail");
      assert.ok(!text.includes("other.fan@example.com"), "another entrant's e-mail");
      assert.ok(!text.includes(paymentId), "payment id");
      assert.ok(!text.includes("pi_fixture_"), "another entrant's payment id");
    }
  });
});

Deno.test("[security] a failing store gives generic 500s without internals", async () => {
  const app = await makeTestApp();
  const errors: unknown[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    app.kv.close();
    const api = await app.request("/api/competitions");
    assert.equal(api.status, 500);
    assert.deepEqual(await readJsonBody(api), { message: "Internal server error" });
    const page = await app.request("/");
    assert.equal(page.status, 500);
    const html = await page.text();
    assert.match(html, /Something Went Wrong/);
    assert.ok(!/at \S+ \(|file:\/\/|Error:|BadResource/i.test(html), "no stack or error text");
    assert.ok(errors.length > 0, "the error is logged on the server");
  } finally {
    console.error = log;
  }
});

Deno.test("[security] the price comes from the server; Stripe mode has no test route", async () => {
  const fake = startFakeStripe();
  const app = await makeTestApp({ stripe: fake });
  try {
    const c = await makeCompetition(app.kv, { entryFee: 12.5 });
    const res = await app.request("/api/create-payment-intent", {
      method: "POST",
      json: { competitionId: c.id, amount: 1, currency: "gbp", entryFee: 0.01 },
    });
    assert.equal(res.status, 200);
    const { paymentIntentId, amount } = await readJsonBody(res);
    assert.equal(amount, 1250);
    assert.equal(fake.intents.get(paymentIntentId)!.amount, 1250);
    assert.equal(fake.intents.get(paymentIntentId)!.currency, "usd");
    const confirm = await app.request("/api/test-payments/confirm", {
      method: "POST",
      json: { paymentIntentId, cardNumber: "4242 4242 4242 4242" },
    });
    assert.equal(confirm.status, 404);
    await confirm.body?.cancel();
    const webhook = await app.request("/api/stripe/webhook", {
      method: "POST",
      headers: { "stripe-signature": "t=1,v1=00" },
      body: JSON.stringify({
        type: "payment_intent.succeeded",
        data: { object: { id: paymentIntentId } },
      }),
    });
    assert.equal(webhook.status, 400);
    await webhook.body?.cancel();
  } finally {
    await app.close();
    await fake.close();
  }
});

Deno.test("[security] a failed test e-mail never names the mail host, port or account", async (t) => {
  const sendTest = (app: TestApp) =>
    app.request("/api/test-email", { method: "POST", json: { email: "fan@example.com" } });
  const errors: unknown[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    await t.step("an unreachable server: a generic reason", async () => {
      const port = freePort();
      const app = await makeTestApp({ smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}` });
      try {
        const res = await sendTest(app);
        assert.equal(res.status, 502);
        const { message } = await readJsonBody(res);
        assert.equal(message, "Failed to send test email: the mail server could not be reached.");
        assert.ok(errors.some((e) => String(e).includes(String(port))), "the log keeps it");
      } finally {
        await app.close();
      }
    });
    await t.step("a recipient the server refuses: its SMTP answer", async () => {
      const smtp = await startTestSmtp({ rejectRecipients: true });
      const app = await makeTestApp({ smtpUrl: smtp.url });
      try {
        const res = await sendTest(app);
        assert.equal(res.status, 502);
        const { message } = await readJsonBody(res);
        assert.match(message, /^Failed to send test email: .*5\d\d/);
        assert.ok(!message.includes(new URL(smtp.url).port), "no port");
      } finally {
        await app.close();
        await smtp.close();
      }
    });
  } finally {
    console.error = log;
  }
});
