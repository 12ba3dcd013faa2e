/**
 * Abuse limits: what an attacker tries (intent floods, guessing passwords, bad hosts and
 * handshakes, forged webhooks, taking every live slot, enumerating entries, dripping bodies).
 * Requests "from" an address pass it as the connection info, as Deno.serve does.
 */
import assert from "node:assert/strict";
import { ensureAdmin } from "@/lib/auth/admins.ts";
import { hashPassword } from "@/lib/auth/passwords.ts";
import { getAdminByUsername, updateAdminPassword } from "@/lib/auth/records/admins.ts";
import { keys } from "@/lib/store/keys.ts";
import { INTENT_LIMIT, INTENT_PERSON_LIMIT } from "@/lib/payments/intent_limit.ts";
import { MAX_SOCKETS_PER_ADDRESS } from "@/lib/live/admission.ts";
import { BODY_TIMEOUT_MS } from "@/lib/http/validate.ts";
import {
  makeTestApp,
  readJsonBody,
  type TestApp,
  type TestRequestInit,
  withTestApp,
} from "@/tests/helpers/app.ts";
import {
  loginCookie,
  makeCompetition,
  makeEntry,
  SUCCESS_CARD,
  TEST_ADMIN,
  validPicks,
} from "@/tests/helpers/fixtures.ts";
import { sendWebhook, signedEvent, withStripeApp } from "@/tests/helpers/stripe.ts";
import Stripe from "stripe";
import { TEST_WEBHOOK_SECRET } from "@/tests/helpers/app.ts";

/** Sends a request to the app as if it came from `address`. */
function from(app: TestApp, address: string, path: string, init: TestRequestInit = {}) {
  return app.request(path, { ...init, from: address });
}

function login(app: TestApp, address: string, password: string) {
  return from(app, address, "/api/admin/login", {
    method: "POST",
    json: { username: TEST_ADMIN.username, password },
  });
}

async function status(res: Response | Promise<Response>): Promise<number> {
  const r = await res;
  await r.body?.cancel();
  return r.status;
}

function assertSecurityHeaders(res: Response) {
  assert.match(res.headers.get("content-security-policy") ?? "", /default-src 'self'/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("x-frame-options"), "DENY");
}

const HANDSHAKE = {
  upgrade: "websocket",
  connection: "Upgrade",
  "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
  "sec-websocket-version": "13",
};

// Point 2 ------------------------------------------------------------------------------------

Deno.test("[abuse] 2,000 buyers behind one address are all served; one abuser is stopped", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { maxEntries: 5_000 });
    const nat = "203.0.113.50";
    const open = (email: string, address = nat) =>
      from(app, address, "/api/create-payment-intent", {
        method: "POST",
        json: { competitionId: c.id, email, teamName: "Crowd", playerIds: validPicks(c) },
      });
    await t.step(
      "2,000 buyers, each with their own e-mail and card, from one address",
      async () => {
        const statuses: number[] = [];
        for (let start = 0; start < 2_000; start += 50) {
          const wave = await Promise.all(
            Array.from({ length: 50 }, async (_, i) => {
              const res = await open(`fan${start + i}@example.com`);
              const { paymentIntentId } = await readJsonBody(res);
              if (res.status !== 200) return res.status;
              return await status(from(app, nat, "/api/test-payments/confirm", {
                method: "POST",
                json: { paymentIntentId, cardNumber: SUCCESS_CARD },
              }));
            }),
          );
          statuses.push(...wave);
        }
        assert.equal(statuses.filter((s) => s === 200).length, 2_000);
      },
    );
    await t.step("one abuser opening intents without paying is stopped", async () => {
      for (let i = 0; i < INTENT_PERSON_LIMIT.limit; i++) {
        assert.equal(await status(open("abuser@example.com")), 200);
      }
      const refused = await open("abuser@example.com");
      assert.equal(refused.status, 429);
      assert.match((await readJsonBody(refused)).message, /Too many payment attempts/);
      // The same person by another spelling of the address is the same person.
      assert.equal(await status(open("Abuser@Example.com")), 429);
      assert.equal(await status(open("fan-next@example.com")), 200, "the crowd is not affected");
    });
  });
});

Deno.test("[abuse] one address inventing e-mails meets the address's ceiling", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const open = (email: string, address: string) =>
      from(app, address, "/api/create-payment-intent", {
        method: "POST",
        json: { competitionId: c.id, email },
      });
    for (let i = 0; i < 40; i++) {
      assert.equal(await status(open(`made-up-${i}@example.com`, "198.51.100.66")), 200);
    }
    const refused = await open("made-up-last@example.com", "198.51.100.66");
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    await refused.body?.cancel();
    assert.equal(await status(open("made-up-last@example.com", "198.51.100.67")), 200);
  }, { config: { intentsPer10Min: 40 } });
});

Deno.test("[abuse] payment intents are rate-limited per client address", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const open = (address: string) =>
      from(app, address, "/api/create-payment-intent", {
        method: "POST",
        json: { competitionId: c.id },
      });
    for (let i = 0; i < INTENT_LIMIT.limit; i++) {
      assert.equal(await status(open("203.0.113.5")), 200);
    }
    const refused = await open("203.0.113.5");
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.match((await readJsonBody(refused)).message, /Too many payment attempts/);
    assert.equal(await status(open("198.51.100.9")), 200, "another buyer is not affected");
    let intents = 0;
    for await (const _ of app.kv.list({ prefix: ["test_payment_intents"] })) intents++;
    assert.equal(intents, INTENT_LIMIT.limit + 1, "a refused request stores nothing");
  });
});

// Point 3 ------------------------------------------------------------------------------------

Deno.test("[abuse] guessing elsewhere cannot lock the real admin out", async (t) => {
  await withTestApp(async (app) => {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    await t.step("the admin logs in from home once", async () => {
      assert.equal(await status(login(app, "192.0.2.10", TEST_ADMIN.password)), 200);
    });
    await t.step("an attacker's address is throttled after 5 guesses", async () => {
      for (let i = 0; i < 5; i++) {
        assert.equal(await status(login(app, "203.0.113.66", `guess-${i}`)), 401);
      }
      const blocked = await login(app, "203.0.113.66", TEST_ADMIN.password);
      assert.equal(blocked.status, 429);
      assertSecurityHeaders(blocked);
      await blocked.body?.cancel();
    });
    await t.step("the admin from another address still gets in", async () => {
      assert.equal(await status(login(app, "192.0.2.10", TEST_ADMIN.password)), 200);
      assert.equal(await status(login(app, "192.0.2.77", TEST_ADMIN.password)), 200);
    });
    await t.step("a distributed attack trips the global brake, but not for home", async () => {
      // 100 failures per username per hour over all untrusted addresses.
      for (let a = 0; a < 20; a++) {
        for (let i = 0; i < 5; i++) await status(login(app, `198.51.100.${a}`, `guess-${i}`));
      }
      const fresh = await login(app, "198.51.100.200", "guess");
      assert.equal(fresh.status, 429);
      assert.match((await readJsonBody(fresh)).message, /for this account/);
      assert.equal(await status(login(app, "192.0.2.10", TEST_ADMIN.password)), 200);
    });
  });
});

// Point 4 ------------------------------------------------------------------------------------

Deno.test("[abuse] throttled admin headers on an admin page: 429, not 500", async () => {
  await withTestApp(async (app) => {
    await ensureAdmin(app.kv, TEST_ADMIN.username, TEST_ADMIN.password);
    const page = (password: string) =>
      from(app, "203.0.113.8", "/admin/dashboard", {
        headers: { "x-admin-username": TEST_ADMIN.username, "x-admin-password": password },
      });
    for (let i = 0; i < 5; i++) assert.equal(await status(page(`wrong-${i}`)), 303);
    const res = await page("wrong-again");
    assert.equal(res.status, 429);
    assertSecurityHeaders(res);
    await res.body?.cancel();
  });
});

Deno.test("[abuse] a Host header that is no host: 400 with security headers", async () => {
  await withTestApp(async (app) => {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req, info) => app.handler(req, info),
    );
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(
        new TextEncoder().encode("GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n"),
      );
      const answer = new TextDecoder().decode(
        (await new Response(conn.readable).arrayBuffer()) as ArrayBuffer,
      );
      assert.match(answer, /^HTTP\/1\.1 400/);
      assert.match(answer, /content-security-policy: default-src 'self'/i);
      assert.match(answer, /x-content-type-options: nosniff/i);
    } finally {
      await server.shutdown();
    }
  });
});

Deno.test("[abuse] /ws handshakes: no key is a 400, version 8 a 426", async () => {
  await withTestApp(async (app) => {
    {
      const { "sec-websocket-key": _, ...noKey } = HANDSHAKE;
      const missing = await app.request("/ws", { headers: noKey });
      assert.equal(missing.status, 400);
      assertSecurityHeaders(missing);
      assert.match((await readJsonBody(missing)).message, /Sec-WebSocket-Key/);
      const v8 = await app.request("/ws", {
        headers: { ...HANDSHAKE, "sec-websocket-version": "8" },
      });
      assert.equal(v8.status, 426);
      assert.equal(v8.headers.get("sec-websocket-version"), "13");
      await v8.body?.cancel();
    }
  });
});

Deno.test("[abuse] webhooks: no data.object is a 400; a future timestamp is refused", async () => {
  await withStripeApp(async (app) => {
    const noObject = JSON.stringify({
      id: "evt_1",
      object: "event",
      type: "payment_intent.succeeded",
      data: {},
    });
    const signer = new Stripe("sk_test_signer");
    const sign = (payload: string, timestamp?: number) =>
      signer.webhooks.generateTestHeaderStringAsync({
        payload,
        secret: TEST_WEBHOOK_SECRET,
        timestamp,
        cryptoProvider: Stripe.createSubtleCryptoProvider(),
      });
    const res = await sendWebhook(app, { payload: noObject, signature: await sign(noObject) });
    assert.equal(res.status, 400);
    assertSecurityHeaders(res);
    await res.body?.cancel();

    const event = await signedEvent("charge.updated", { id: "ch_1" });
    const future = Math.floor(Date.now() / 1000) + 3600;
    const ahead = await sendWebhook(app, {
      payload: event.payload,
      signature: await sign(event.payload, future),
    });
    assert.equal(ahead.status, 400);
    assert.deepEqual(await readJsonBody(ahead), { message: "Invalid webhook signature" });
    assert.equal(await status(sendWebhook(app, event)), 200, "a current event still passes");
  });
});

// Point 6 ------------------------------------------------------------------------------------

Deno.test("[abuse] a new password ends the sessions; a deleted admin's session is refused", async (t) => {
  await withTestApp(async (app) => {
    const session = (cookie: string) =>
      status(app.request("/api/admin/session", { headers: { cookie } }));
    await t.step("a password change (e.g. a restart with a new ADMIN_PASSWORD)", async () => {
      const cookie = await loginCookie(app);
      assert.equal(await session(cookie), 200);
      await ensureAdmin(app.kv, TEST_ADMIN.username, "a brand new password");
      assert.equal(await session(cookie), 401);
    });
    await t.step("the admin record is gone", async () => {
      const admin = await getAdminByUsername(app.kv, TEST_ADMIN.username);
      await updateAdminPassword(app.kv, admin!.id, await hashPassword(TEST_ADMIN.password));
      const cookie = await loginCookie(app);
      assert.equal(await session(cookie), 200);
      await app.kv.delete(keys.admin(admin!.id));
      assert.equal(await session(cookie), 401);
    });
  });
});

// Point 7 ------------------------------------------------------------------------------------

Deno.test("[abuse] one address cannot take every live slot", async () => {
  const app = await makeTestApp();
  const { hub } = app.services;
  // The test server takes the client's address from ?addr= (one machine plays many clients).
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req, info) => {
    const hostname = new URL(req.url).searchParams.get("addr") ?? "127.0.0.1";
    return app.handler(req, { ...info, remoteAddr: { transport: "tcp", hostname, port: 1 } });
  });
  const url = (addr: string) => `ws://127.0.0.1:${server.addr.port}/ws?addr=${addr}`;
  const open = (addr: string) =>
    new Promise<WebSocket | null>((resolve) => {
      const socket = new WebSocket(url(addr));
      socket.onopen = () => resolve(socket);
      socket.onerror = () => resolve(null);
    });
  const sockets: WebSocket[] = [];
  try {
    for (let i = 0; i < MAX_SOCKETS_PER_ADDRESS; i++) {
      const socket = await open("203.0.113.50");
      assert.ok(socket, `socket ${i + 1} of the address opens`);
      sockets.push(socket);
    }
    assert.equal(await open("203.0.113.50"), null, "one more from the same address is refused");
    const res = await from(app, "203.0.113.50", "/ws", { headers: HANDSHAKE });
    assert.equal(res.status, 429);
    assertSecurityHeaders(res);
    await res.body?.cancel();
    const visitor = await open("198.51.100.20");
    assert.ok(visitor, "the next visitor still gets a live feed");
    sockets.push(visitor);
    assert.equal(hub.stats().sockets, MAX_SOCKETS_PER_ADDRESS + 1);
  } finally {
    await Promise.all(sockets.map((socket) =>
      new Promise((resolve) => {
        socket.onclose = resolve;
        socket.close();
      })
    ));
    await server.shutdown();
    await app.close();
  }
});

// Point 8 ------------------------------------------------------------------------------------

Deno.test("[abuse] entries cannot be enumerated by number", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const entry = await makeEntry(app.kv, c);
    for (const suffix of ["", "/players", "/details"]) {
      assert.equal(await status(app.request(`/api/entries/${entry.id}${suffix}`)), 404, suffix);
      assert.equal(await status(app.request(`/api/entries/${entry.teamId}${suffix}`)), 200, suffix);
    }
  });
});

// Point 10 -----------------------------------------------------------------------------------

Deno.test("[abuse] logout with a dead cookie still clears it", async () => {
  await withTestApp(async (app) => {
    const res = await app.request("/api/admin/logout", {
      method: "POST",
      headers: { cookie: "admin_session=expired-or-forged" },
    });
    assert.match(res.headers.get("set-cookie") ?? "", /^admin_session=;.*Max-Age=0/);
    await res.body?.cancel();
  });
});

Deno.test("[abuse] the CSP's socket source never comes from the Host header", async () => {
  for (const publicUrl of [null, "https://contests.example"]) {
    await withTestApp(async (app) => {
      const res = await app.handler(
        new Request("http://evil.example/", { headers: { host: "evil.example" } }),
      );
      const csp = res.headers.get("content-security-policy") ?? "";
      await res.body?.cancel();
      assert.doesNotMatch(csp, /evil\.example/);
      if (publicUrl) assert.match(csp, /connect-src 'self' wss:\/\/contests\.example[; ]/);
      else assert.match(csp, /connect-src 'self' ws:\/\/localhost /);
    }, { config: { publicUrl } });
  }
});

// Point 9 ------------------------------------------------------------------------------------

Deno.test("[abuse] a body that drips gets 408 when its time is up", async () => {
  await withTestApp(async (app) => {
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req, info) => app.handler(req, info),
    );
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    try {
      const started = Date.now();
      await conn.write(new TextEncoder().encode(
        "POST /api/test-email HTTP/1.1\r\nHost: localhost\r\n" +
          "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      ));
      const decoder = new TextDecoder();
      let answer = "";
      const buf = new Uint8Array(4096);
      while (!answer.includes("Request body took too long")) {
        const n = await conn.read(buf);
        if (n === null) break;
        answer += decoder.decode(buf.subarray(0, n));
      }
      const seconds = (Date.now() - started) / 1000;
      assert.match(answer, /^HTTP\/1\.1 408/);
      assert.match(answer, /connection: close/i);
      assert.match(answer, /x-content-type-options: nosniff/i);
      assert.ok(seconds >= BODY_TIMEOUT_MS / 1000 - 1, `answered after ${seconds} s`);
      assert.ok(seconds < BODY_TIMEOUT_MS / 1000 + 10, `answered after ${seconds} s`);
    } finally {
      conn.close();
      await server.shutdown();
    }
  });
});
