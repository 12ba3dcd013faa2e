/**
 * A person without a password (a sign-in link, a revocable session) and their own rules of play:
 * spend limits, breaks and self-exclusion, enforced when a payment opens and again at commit.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/store/keys.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { excludePerson, LINK_INVALID, redeemSignInLink } from "@/lib/db/persons.ts";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import {
  makeAdminHeaders,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
  validTeams,
} from "@/tests/helpers/fixtures.ts";

const nameOf = (email: string, n: number) => `Lawful ${n} ${email.slice(0, 12)}`;

function openIntent(app: TestApp, c: TestCompetition, email: string, n = 0) {
  return app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId: c.id, email, teamName: nameOf(email, n), playerIds: validTeams(c)[n] },
  });
}

/** Pays without telling the intent who pays (another tab), then asks for the entry. */
async function enterPaid(app: TestApp, c: TestCompetition, email: string, n = 0) {
  const stripePaymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", {
    method: "POST",
    json: {
      competitionId: c.id,
      email,
      teamName: nameOf(email, n),
      playerIds: validTeams(c)[n],
      stripePaymentId,
    },
  });
  return { res, stripePaymentId };
}

/** Signs in through the e-mailed link; returns the Cookie header of the session. */
async function signIn(app: TestApp, email: string, from = "10.0.0.1"): Promise<string> {
  const asked = await app.request("/api/account/sign-in-link", {
    method: "POST",
    json: { email },
    from,
  });
  assert.equal(asked.status, 202);
  await asked.body?.cancel();
  const token = await linkTokenSentTo(app, email);
  const res = await app.request("/api/account/session", { method: "POST", json: { token } });
  assert.equal(res.status, 200);
  const cookie = res.headers.get("set-cookie")!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  await res.body?.cancel();
  return cookie.split(";")[0];
}

/** The token of the newest sign-in link e-mailed to `email`. */
async function linkTokenSentTo(app: TestApp, email: string): Promise<string> {
  const mail = (await listOutbox(app.kv)).find((m) => m.to === email && m.about === "sign-in");
  assert.ok(mail, `a sign-in e-mail to ${email}`);
  return mail.text.match(/token=([\w-]+)/)![1];
}

function account(app: TestApp, cookie: string) {
  return app.request("/api/account", { headers: { cookie } });
}

Deno.test("[account] a sign-in link opens one session, once, and sessions can be revoked", async (t) => {
  await withTestApp(async (app) => {
    await t.step("no session: 401", async () => {
      const res = await app.request("/api/account");
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });
    let cookie = "";
    await t.step("the link is e-mailed and signs the mailbox in", async () => {
      cookie = await signIn(app, "Ann.Lee+cup@example.com");
      const res = await account(app, cookie);
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      assert.equal(body.person, "ann.lee@example.com");
      assert.deepEqual(body.entries, []);
    });
    await t.step("the store keeps only hashes of the token and of the session id", async () => {
      const token = await linkTokenSentTo(app, "Ann.Lee+cup@example.com");
      const sessionId = cookie.split("=")[1];
      for await (const { key, value } of app.kv.list({ prefix: [] })) {
        const text = JSON.stringify([key, value]);
        assert.ok(!text.includes(sessionId), `session id in ${key}`);
        if (key[0] !== "outbox") assert.ok(!text.includes(token), `token in ${key}`);
      }
    });
    await t.step("a used link does not work again", async () => {
      const token = await linkTokenSentTo(app, "Ann.Lee+cup@example.com");
      const res = await app.request("/api/account/session", { method: "POST", json: { token } });
      assert.equal(res.status, 409);
      assert.equal((await readJsonBody(res)).message, LINK_INVALID);
    });
    await t.step("a link is dead after 15 minutes", async () => {
      const asked = await app.request("/api/account/sign-in-link", {
        method: "POST",
        json: { email: "late@example.com" },
      });
      assert.equal(asked.status, 202);
      await asked.body?.cancel();
      const token = await linkTokenSentTo(app, "late@example.com");
      const later = new Date(Date.now() + 15 * 60_000 + 1000);
      await assert.rejects(redeemSignInLink(app.kv, token, later), { message: LINK_INVALID });
    });
    await t.step("two uses of one link at once: one session", async () => {
      const asked = await app.request("/api/account/sign-in-link", {
        method: "POST",
        json: { email: "twice@example.com" },
      });
      await asked.body?.cancel();
      const token = await linkTokenSentTo(app, "twice@example.com");
      const both = await Promise.all(
        [1, 2].map(() => app.request("/api/account/session", { method: "POST", json: { token } })),
      );
      assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
      for (const r of both) await r.body?.cancel();
    });
    await t.step("Sign out ends this session", async () => {
      const other = await signIn(app, "ann.lee@example.com", "10.0.0.2");
      const res = await app.request("/api/account/session", {
        method: "DELETE",
        headers: { cookie },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("set-cookie")!, /Max-Age=0/);
      await res.body?.cancel();
      assert.equal((await account(app, cookie)).status, 401);
      const still = await account(app, other);
      assert.equal(still.status, 200, "the other device stays signed in");
      await still.body?.cancel();
      cookie = other;
    });
    await t.step("Sign out everywhere ends the others too", async () => {
      const third = await signIn(app, "ann.lee@example.com", "10.0.0.3");
      const out = await app.request("/api/account/sessions", {
        method: "DELETE",
        headers: { cookie: third },
      });
      assert.equal(out.status, 200);
      await out.body?.cancel();
      for (const c of [cookie, third]) {
        const r = await account(app, c);
        assert.equal(r.status, 401);
        await r.body?.cancel();
      }
    });
    await t.step("links are rate-limited per address (any spelling) and per client", async () => {
      const ask = (email: string, from: string) =>
        app.request("/api/account/sign-in-link", { method: "POST", json: { email }, from });
      for (let i = 0; i < 3; i++) {
        const r = await ask(`rl+${i}@example.com`, `10.1.0.${i}`);
        assert.equal(r.status, 202);
        await r.body?.cancel();
      }
      const fourth = await ask("RL@example.com", "10.1.0.9");
      assert.equal(fourth.status, 429);
      assert.match((await readJsonBody(fourth)).message, /Too many sign-in links/);
      for (let i = 0; i < 10; i++) {
        await (await ask(`c${i}@example.com`, "10.2.0.1")).body?.cancel();
      }
      const past = await ask("c99@example.com", "10.2.0.1");
      assert.equal(past.status, 429);
      await past.body?.cancel();
    });
    await t.step("bad input: 400 naming the field, nothing sent", async () => {
      const before = (await listOutbox(app.kv)).length;
      const res = await app.request("/api/account/sign-in-link", {
        method: "POST",
        json: { email: "not an address" },
      });
      assert.equal(res.status, 400);
      assert.deepEqual((await readJsonBody(res)).issues[0].path, ["email"]);
      assert.equal((await listOutbox(app.kv)).length, before);
    });
  });
});

Deno.test("[limits] spend limits hold when the payment opens and at commit", async (t) => {
  await withTestApp(async (app) => {
    const email = "spender@example.com";
    const cookie = await signIn(app, email);
    const c = await makeCompetition(app.kv, { maxEntriesPerPerson: 10 });
    const setLimits = (json: Record<string, unknown>) =>
      app.request("/api/account/limits", { method: "PUT", json, headers: { cookie } });

    await t.step("a daily limit of $20 lets two $10 entries through, not a third", async () => {
      const res = await setLimits({ daily: 20 });
      assert.equal(res.status, 200);
      assert.equal((await readJsonBody(res)).limits.daily.cents, 2000);
      for (const n of [0, 1]) assert.equal((await enterPaid(app, c, email, n)).res.status, 201);
      const refused = await openIntent(app, c, "Spender+x@example.com", 2);
      assert.equal(refused.status, 409);
      const body = await readJsonBody(refused);
      assert.match(
        body.message,
        /^Your daily limit of \$20\.00 is reached until \d\d:\d\d UTC\.$|^Your daily limit of \$20\.00 is reached until \w{3} \d+ \w{3}, \d\d:\d\d UTC\.$/,
      );
      assert.deepEqual(body.issues[0].path, ["email"]);
    });
    await t.step("paid anyway in another tab: refunded at commit", async () => {
      const { res, stripePaymentId } = await enterPaid(app, c, email, 3);
      assert.equal(res.status, 409);
      assert.match((await readJsonBody(res)).message, /daily limit of \$20\.00/);
      const refund = await app.kv.get<{ status: string }>(keys.refund(stripePaymentId));
      assert.ok(refund.value, "the payment is refunded");
      const view = await readJsonBody(await account(app, cookie));
      assert.equal(view.limits.daily.spent, 2000, "the refunded payment is not spend");
      assert.equal(view.entries.length, 2);
    });
    await t.step("raising waits 24 hours, shown as pending; lowering is at once", async () => {
      const raised = await readJsonBody(await setLimits({ daily: 50, weekly: 15 }));
      assert.equal(raised.limits.daily.cents, 2000);
      assert.equal(raised.limits.daily.pending.cents, 5000);
      const from = Date.parse(raised.limits.daily.pending.from) - Date.now();
      assert.ok(from > 23 * 3_600_000 && from <= 24 * 3_600_000, `pending for ${from} ms`);
      assert.equal(raised.limits.weekly.cents, 1500);
      const refused = await openIntent(app, c, email, 4);
      assert.equal(refused.status, 409);
      assert.match((await readJsonBody(refused)).message, /daily limit of \$20\.00/);
    });
    await t.step("a fee above a limit by itself says so", async () => {
      const d = await makeCompetition(app.kv, { entryFee: 200 });
      const res = await openIntent(app, d, "fresh@example.com");
      assert.equal(res.status, 200, "nobody else is limited");
      await res.body?.cancel();
      const other = await signIn(app, "big@example.com", "10.0.0.7");
      await app.request("/api/account/limits", {
        method: "PUT",
        json: { monthly: 100 },
        headers: { cookie: other },
      }).then((r) => r.body?.cancel());
      const big = await openIntent(app, d, "big@example.com");
      assert.equal(big.status, 409);
      assert.equal(
        (await readJsonBody(big)).message,
        "This entry fee of $200.00 is above your monthly limit of $100.00.",
      );
    });
    await t.step("bad limits: 400 naming the field, nothing changed", async () => {
      for (const json of [{ daily: -5 }, { weekly: "lots" }, { monthly: 10.555 }]) {
        const res = await setLimits(json);
        assert.equal(res.status, 400);
        assert.equal((await readJsonBody(res)).issues[0].path[0], Object.keys(json)[0]);
      }
      const view = await readJsonBody(await account(app, cookie));
      assert.equal(view.limits.daily.cents, 2000);
      assert.equal(view.limits.monthly.cents, null);
    });
    await t.step("without a session: 401", async () => {
      const res = await app.request("/api/account/limits", { method: "PUT", json: { daily: 1 } });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });
  });
});

Deno.test("[limits] a break stops paid entries until it ends", async (t) => {
  await withTestApp(async (app) => {
    const email = "resting@example.com";
    const cookie = await signIn(app, email);
    const c = await makeCompetition(app.kv);
    const takeBreak = (json: unknown) =>
      app.request("/api/account/break", { method: "POST", json, headers: { cookie } });
    await t.step("less than 24 hours or more than 6 weeks: 400", async () => {
      for (const hours of [23, 1009, 30.5, "x"]) {
        const res = await takeBreak({ hours });
        assert.equal(res.status, 400, `hours ${hours}`);
        assert.deepEqual((await readJsonBody(res)).issues[0].path, ["hours"]);
      }
    });
    await t.step("a 48-hour break refuses the payment and the commit", async () => {
      const res = await takeBreak({ hours: 48 });
      assert.equal(res.status, 200);
      const until = Date.parse((await readJsonBody(res)).breakUntil) - Date.now();
      assert.ok(until > 47 * 3_600_000 && until <= 48 * 3_600_000);
      const refused = await openIntent(app, c, "RESTING+a@example.com");
      assert.equal(refused.status, 409);
      assert.match(
        (await readJsonBody(refused)).message,
        /^You are taking a break from play until /,
      );
      const { res: late, stripePaymentId } = await enterPaid(app, c, email);
      assert.equal(late.status, 409);
      assert.match((await readJsonBody(late)).message, /taking a break/);
      assert.ok((await app.kv.get(keys.refund(stripePaymentId))).value);
    });
    await t.step("a shorter break does not shorten it", async () => {
      const body = await readJsonBody(await takeBreak({ hours: 24 }));
      assert.ok(Date.parse(body.breakUntil) - Date.now() > 47 * 3_600_000);
    });
  });
});

Deno.test("[exclusion] self-exclusion by mailbox, its own and a regulator's", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    await t.step(
      "a person excludes themselves for a year: no undoing, refused everywhere",
      async () => {
        const cookie = await signIn(app, "j.ane@gmail.com");
        const unconfirmed = await app.request("/api/account/self-exclusion", {
          method: "POST",
          json: { period: "6m" },
          headers: { cookie },
        });
        assert.equal(unconfirmed.status, 400);
        assert.deepEqual((await readJsonBody(unconfirmed)).issues[0].path, ["confirm"]);
        const res = await app.request("/api/account/self-exclusion", {
          method: "POST",
          json: { period: "1y", confirm: true },
          headers: { cookie },
        });
        assert.equal(res.status, 200);
        const { exclusion } = await readJsonBody(res);
        const months = (Date.parse(exclusion.until) - Date.now()) / (30.4 * 86_400_000);
        assert.ok(months > 11.8 && months < 12.2, `${months} months`);
        const shorter = await app.request("/api/account/self-exclusion", {
          method: "POST",
          json: { period: "6m", confirm: true },
          headers: { cookie },
        });
        assert.equal((await readJsonBody(shorter)).exclusion.until, exclusion.until);
        const refused = await openIntent(app, c, "Jane+x@googlemail.com");
        assert.equal(refused.status, 409);
        assert.match(
          (await readJsonBody(refused)).message,
          /^You have excluded yourself from play until /,
        );
        const { res: late } = await enterPaid(app, c, "jane@gmail.com");
        assert.equal(late.status, 409);
      },
    );
    await t.step("a regulator's listing refuses the mailbox", async () => {
      const until = new Date(Date.now() + 365 * 86_400_000).toISOString();
      await excludePerson(app.kv, "listed@example.com", until, "regulator");
      const refused = await openIntent(app, c, "Listed+1@Example.com");
      assert.equal(refused.status, 409);
      assert.match((await readJsonBody(refused)).message, /self-exclusion list/);
    });
    await t.step("an exclusion that ended refuses nothing", async () => {
      const until = new Date(Date.now() - 1000).toISOString();
      await excludePerson(app.kv, "was@example.com", until, "regulator");
      const res = await openIntent(app, c, "was@example.com");
      assert.equal(res.status, 200);
      await res.body?.cancel();
    });
  });
});

Deno.test("[account] the pages: sign in by link, set limits by form, responsible play", async (t) => {
  await withTestApp(async (app) => {
    const form = (fields: Record<string, string>, cookie?: string) => ({
      method: "POST",
      body: new URLSearchParams(fields),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(cookie ? { cookie } : {}),
      },
    });
    await t.step("signed out, My account asks for the address", async () => {
      const res = await app.request("/account");
      assert.equal(res.status, 200);
      assert.match(await res.text(), /E-mail me a sign-in link/);
    });
    await t.step("a bad address re-renders with a 400 and sends nothing", async () => {
      const res = await app.request("/account", form({ action: "link", email: "nope" }));
      assert.equal(res.status, 400);
      assert.match(await res.text(), /role="alert"/);
      assert.equal((await listOutbox(app.kv)).length, 0);
    });
    let cookie = "";
    await t.step("the link page signs in only on its button", async () => {
      const asked = await app.request(
        "/account",
        form({ action: "link", email: "page@example.com" }),
      );
      assert.equal(asked.status, 303);
      assert.equal(asked.headers.get("location"), "/account?done=link");
      const token = await linkTokenSentTo(app, "page@example.com");
      const opened = await app.request(`/account/sign-in?token=${token}`);
      assert.equal(opened.status, 200);
      assert.equal(opened.headers.get("set-cookie"), null);
      await opened.body?.cancel();
      const res = await app.request("/account/sign-in", form({ token }));
      assert.equal(res.status, 303);
      cookie = res.headers.get("set-cookie")!.split(";")[0];
      const again = await app.request("/account/sign-in", form({ token }));
      assert.equal(again.status, 409);
      assert.match(await again.text(), /expired or was already used/);
    });
    await t.step("a cross-site post is refused", async () => {
      const init = form({ action: "limits", daily: "5" }, cookie);
      const res = await app.request("/account", {
        ...init,
        headers: { ...init.headers, "sec-fetch-site": "cross-site" },
      });
      assert.equal(res.status, 403);
      await res.body?.cancel();
    });
    await t.step("limits saved by form show on the page", async () => {
      const res = await app.request(
        "/account",
        form({ action: "limits", daily: "20", weekly: "", monthly: "" }, cookie),
      );
      assert.equal(res.status, 303);
      const page = await (await app.request("/account", { headers: { cookie } })).text();
      assert.match(page, /Signed in as/);
      assert.match(page, /Spent \$0\.00 of \$20\.00/);
    });
    await t.step("the responsible-play page, linked from the footer", async () => {
      const home = await app.request("/account");
      assert.match(await home.text(), /href="\/responsible-play"/);
      const res = await app.request("/responsible-play");
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.match(text, /1-800-GAMBLER/);
      assert.match(text, /Winnings may be taxable/);
    });
  });
});

Deno.test("[exclusion] a regulator's CSV is imported and listed; a bad row changes nothing", async (t) => {
  await withTestApp(async (app) => {
    const headers = await makeAdminHeaders(app.kv);
    const post = (content: string) =>
      app.request("/api/admin/self-exclusions", { method: "POST", json: { content }, headers });
    const c = await makeCompetition(app.kv);
    await t.step("admins only", async () => {
      const res = await app.request("/api/admin/self-exclusions", {
        method: "POST",
        json: { content: "email,until\n" },
      });
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });
    await t.step("a bad row: 400 naming it, nothing imported", async () => {
      for (
        const [content, message] of [
          ["email,until\nok@example.com,2030-01-01\nnot-an-address,2030-01-01\n", /^Row 3: email/],
          ["email,until\nok@example.com,next year\n", /^Row 2: until/],
          ["mail,until\nok@example.com,2030-01-01\n", /Unknown column mail/],
        ] as const
      ) {
        const res = await post(content);
        assert.equal(res.status, 400);
        const body = await readJsonBody(res);
        assert.match(body.message, message);
        assert.equal(body.issues[0].path[0], "content");
      }
      const list = await readJsonBody(await app.request("/api/admin/self-exclusions", { headers }));
      assert.deepEqual(list.exclusions, []);
    });
    await t.step("the file excludes each mailbox, whatever its spelling", async () => {
      const res = await post(
        "email,until\nBanned+x@Example.com,2030-01-31\nj.oe@googlemail.com,2031-06-30T12:00:00Z\n",
      );
      assert.equal(res.status, 200);
      assert.deepEqual(await readJsonBody(res), { rows: 2, excluded: 2, kept: 0 });
      const list = await readJsonBody(await app.request("/api/admin/self-exclusions", { headers }));
      assert.deepEqual(
        list.exclusions.map((x: { person: string; until: string }) => [x.person, x.until]),
        [
          ["banned@example.com", "2030-01-31T23:59:59.000Z"],
          ["joe@gmail.com", "2031-06-30T12:00:00.000Z"],
        ],
      );
      for (const email of ["banned@example.com", "Joe@gmail.com"]) {
        const refused = await openIntent(app, c, email);
        assert.equal(refused.status, 409);
        assert.match((await readJsonBody(refused)).message, /self-exclusion list until/);
      }
    });
    await t.step("a file over 1 MiB: 413, nothing imported", async () => {
      const res = await post("email,until\n" + "x@example.com,2030-01-01\n".repeat(50_000));
      assert.equal(res.status, 413);
      await res.body?.cancel();
      assert.equal((await app.kv.get(keys.selfExclusion("x@example.com"))).value, null);
    });
    await t.step("a later file never shortens an exclusion", async () => {
      const res = await post("email,until\nbanned@example.com,2029-01-01\n");
      assert.deepEqual(await readJsonBody(res), { rows: 1, excluded: 0, kept: 1 });
    });
    await t.step("the admin page lists them and takes the file", async () => {
      const body = new FormData();
      body.set("file", new File(["email,until\nfile@example.com,2032-02-02\n"], "list.csv"));
      const res = await app.request("/admin/self-exclusions", { method: "POST", body, headers });
      assert.equal(res.status, 200);
      const page = await res.text();
      assert.match(page, /Imported 1 rows: 1 excluded/);
      assert.match(page, /file@example.com/);
      assert.match(page, /banned@example.com/);
    });
  });
});
