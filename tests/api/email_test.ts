import assert from "node:assert/strict";
import { countUndelivered, deliverOutbox, listOutbox, queueMail } from "@/lib/db/outbox.ts";
import { SmtpMailer } from "@/lib/email/smtp.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { entryBody, makeCompetition, payTestIntent } from "@/tests/helpers/fixtures.ts";
import { startTestSmtp, type TestSmtp } from "@/tests/helpers/smtp.ts";

const SENT = "Test email sent successfully. Please check your inbox.";

function testEmail(app: TestApp, json: unknown) {
  return app.request("/api/test-email", { method: "POST", json });
}

/** The message body with quoted-printable soft breaks and escapes undone. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex) => String.fromCharCode(parseInt(hex, 16)),
  );
}

async function withSmtp(
  fn: (app: TestApp, smtp: TestSmtp) => Promise<void>,
  opts: { rejectRecipients?: boolean } = {},
) {
  const smtp = await startTestSmtp(opts);
  const app = await makeTestApp({ smtpUrl: smtp.url });
  try {
    await fn(app, smtp);
  } finally {
    await app.close();
    await smtp.close();
  }
}

Deno.test("[email] POST /api/test-email sends through the SMTP server", async () => {
  await withSmtp(async (app, smtp) => {
    const res = await testEmail(app, { email: " someone@example.com " });
    assert.equal(res.status, 200);
    assert.deepEqual(await readJsonBody(res), { message: SENT });
    assert.equal(smtp.messages.length, 1);
    assert.deepEqual(smtp.messages[0].to, ["someone@example.com"]);
    assert.equal(smtp.messages[0].from, "no-reply@localhost");
    assert.match(smtp.messages[0].raw, /Subject: Test email/);
  });
});

Deno.test("[email] test-email validation messages", async (t) => {
  const app = await makeTestApp();
  try {
    const cases: [unknown, string][] = [
      [{ email: "" }, "Please enter an email address to send the test email to."],
      [{}, "Please enter an email address to send the test email to."],
      [{ email: "nope" }, "Please provide a valid email"],
    ];
    for (const [body, message] of cases) {
      await t.step(message, async () => {
        const res = await testEmail(app, body);
        assert.equal(res.status, 400);
        assert.equal((await readJsonBody(res)).message, message);
      });
    }
    assert.equal((await listOutbox(app.kv)).length, 0);
  } finally {
    await app.close();
  }
});

Deno.test("[email] an SMTP refusal answers 502 with a message", async () => {
  await withSmtp(async (app) => {
    const res = await testEmail(app, { email: "someone@example.com" });
    assert.equal(res.status, 502);
    const body = await readJsonBody(res);
    assert.match(body.message, /^Failed to send test email: /);
  }, { rejectRecipients: true });
});

Deno.test("[email] without SMTP the test e-mail goes to the outbox", async () => {
  const app = await makeTestApp();
  try {
    const res = await testEmail(app, { email: "someone@example.com" });
    assert.equal(res.status, 200);
    assert.deepEqual(await readJsonBody(res), { message: SENT });
    const [message] = await listOutbox(app.kv);
    assert.equal(message.to, "someone@example.com");
  } finally {
    await app.close();
  }
});

Deno.test("[email] a new entry sends its confirmation over SMTP", async () => {
  await withSmtp(async (app, smtp) => {
    const c = await makeCompetition(app.kv, { name: "Cup Night" });
    const paid = await payTestIntent(app, c.id);
    const res = await app.request("/api/entries", { method: "POST", json: entryBody(c, paid) });
    assert.equal(res.status, 201);
    const { teamId } = await readJsonBody(res);
    assert.equal(smtp.messages.length, 1);
    const mail = smtp.messages[0];
    assert.deepEqual(mail.to, ["jane@example.com"]);
    const text = decoded(mail.raw);
    assert.ok(text.includes(`Team ID: ${teamId}`));
    assert.ok(text.includes(`http://localhost/leaderboard/${c.id}`));
    assert.ok(text.includes("Cup Night"));
    for (const id of entryBody(c, paid).playerIds) {
      const player = c.players.find((p) => p.id === id)!;
      assert.ok(text.includes(player.name), player.name);
    }
  });
});

Deno.test("[email] a failing mail server never fails the entry", async () => {
  await withSmtp(async (app, smtp) => {
    const c = await makeCompetition(app.kv);
    const paid = await payTestIntent(app, c.id);
    const res = await app.request("/api/entries", { method: "POST", json: entryBody(c, paid) });
    assert.equal(res.status, 201);
    assert.match((await readJsonBody(res)).teamId, /^FFT-/);
    assert.equal(smtp.messages.length, 0);
  }, { rejectRecipients: true });
});

Deno.test("[email] a money notice waits in the outbox until the SMTP server takes it, then goes once", async () => {
  const kv = await Deno.openKv(":memory:");
  const down = await startTestSmtp({ rejectRecipients: true });
  const up = await startTestSmtp();
  try {
    const mail = { to: "fan@example.com", subject: "Your refund", text: "Refunded." };
    const res = await queueMail(kv.atomic(), mail, { deliver: true, about: "refund:pi_1" })
      .commit();
    assert.equal(res.ok, true);
    assert.equal(await countUndelivered(kv), 1);

    assert.equal(await deliverOutbox(kv, new SmtpMailer(down.url, "app@example.com")), 0);
    assert.equal(await countUndelivered(kv), 1, "a refused send stays to retry");

    const mailer = new SmtpMailer(up.url, "app@example.com");
    assert.equal(await deliverOutbox(kv, mailer), 1);
    assert.equal(await deliverOutbox(kv, mailer), 0, "delivered once");
    assert.equal(up.messages.length, 1);
    assert.deepEqual(up.messages[0].to, ["fan@example.com"]);
    assert.equal(await countUndelivered(kv), 0);
    const [kept] = await listOutbox(kv);
    assert.equal(kept.about, "refund:pi_1");
  } finally {
    kv.close();
    await down.close();
    await up.close();
  }
});

Deno.test("[email] a notice's atomic that fails writes no mail", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(["x"], 1);
    const stale = { key: ["x"], versionstamp: "00000000000000000000" };
    const mail = { to: "fan@example.com", subject: "Your refund", text: "Refunded." };
    const res = await queueMail(kv.atomic().check(stale), mail, { deliver: true }).commit();
    assert.equal(res.ok, false);
    assert.deepEqual(await listOutbox(kv), []);
    assert.equal(await countUndelivered(kv), 0);
  } finally {
    kv.close();
  }
});
