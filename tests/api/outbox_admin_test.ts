/**
 * Support's Outbox screen: what was e-mailed to an address (any case), when and whether it went,
 * with a Resend that writes a new message, logs the admin's action and hands it to SMTP at once.
 */
import assert from "node:assert/strict";
import { listAudit } from "@/lib/db/audit.ts";
import { listOutbox, migrateOutboxRecipients } from "@/lib/db/outbox.ts";
import { keys } from "@/lib/store/keys.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeAdminHeaders,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
} from "@/tests/helpers/fixtures.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

async function checkout(app: TestApp, c: TestCompetition): Promise<string> {
  const paymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", { method: "POST", json: entryBody(c, paymentId) });
  assert.equal(res.status, 201);
  return (await readJsonBody(res)).teamId;
}

Deno.test("[outbox] support finds an address's e-mails with their state, and resends one", async (t) => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv);
    const teamId = await checkout(app, c);
    const search = (to: string) =>
      app.request(`/api/admin/outbox?to=${encodeURIComponent(to)}`, { headers: admin });

    await t.step("the confirmation, found by its address in any case, kept (no SMTP)", async () => {
      const res = await search("  JANE@Example.com ");
      assert.equal(res.status, 200);
      const { messages } = await readJsonBody(res);
      assert.equal(messages.length, 1);
      assert.match(messages[0].subject, new RegExp(`Team ID ${teamId}`));
      assert.equal(messages[0].state, "kept");
      assert.equal(messages[0].to, "jane@example.com");
      const none = await readJsonBody(await search("nobody@example.com"));
      assert.deepEqual(none.messages, []);
    });

    await t.step("a bad address is a 400 naming the field; no admin, no answer", async () => {
      const bad = await search("not-an-address");
      assert.equal(bad.status, 400);
      assert.equal((await readJsonBody(bad)).issues[0].path[0], "to");
      const anonymous = await app.request("/api/admin/outbox?to=jane@example.com");
      assert.equal(anonymous.status, 401);
      await anonymous.body?.cancel();
    });

    await t.step("Resend writes a new message, newest first, and logs who did it", async () => {
      const [first] = (await readJsonBody(await search("jane@example.com"))).messages;
      const res = await app.request(`/api/admin/outbox/${first.id}/resend`, {
        method: "POST",
        headers: admin,
      });
      assert.equal(res.status, 200);
      const resent = await readJsonBody(res);
      assert.notEqual(resent.id, first.id);
      const { messages } = await readJsonBody(await search("jane@example.com"));
      assert.deepEqual(messages.map((m: { id: number }) => m.id), [resent.id, first.id]);
      assert.equal(messages[0].text, first.text);
      const [record] = (await listAudit(app.kv)).filter((e) => /outbox/.test(e.request));
      assert.ok(record, "the resend is in the activity log");
      assert.equal(record.admin, "admin");
      const missing = await app.request("/api/admin/outbox/999999999/resend", {
        method: "POST",
        headers: admin,
      });
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    });

    await t.step("messages written before the index are found once migrated", async () => {
      for await (const e of app.kv.list({ prefix: ["outbox_to"] })) await app.kv.delete(e.key);
      assert.deepEqual((await readJsonBody(await search("jane@example.com"))).messages, []);
      await migrateOutboxRecipients(app.kv);
      const { messages } = await readJsonBody(await search("jane@example.com"));
      assert.equal(messages.length, (await listOutbox(app.kv)).length);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[outbox] with SMTP: sent, or waiting with its tries, or bounced", async () => {
  const smtp = await startTestSmtp();
  const app = await makeTestApp({ smtpUrl: smtp.url });
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv);
    await checkout(app, c);
    const state = async () =>
      (await readJsonBody(
        await app.request("/api/admin/outbox?to=jane@example.com", { headers: admin }),
      )).messages.map((m: { state: string; attempts: number }) => [m.state, m.attempts]);
    assert.deepEqual(await state(), [["sent", 0]], "handed to the server at once");
    assert.equal(smtp.messages.length, 1);
    // A message still marked for the server, tried twice already.
    const [message] = await listOutbox(app.kv);
    await app.kv.set(keys.outboxUndelivered(message.id), { claimedUntil: 0, attempts: 2 });
    assert.deepEqual(await state(), [["waiting", 2]]);
    await app.kv.delete(keys.outboxUndelivered(message.id));
    await app.kv.set(keys.notifyBounced("jane@example.com"), { at: new Date().toISOString() });
    assert.deepEqual(await state(), [["bounced", 0]]);
  } finally {
    await app.close();
    await smtp.close();
  }
});
