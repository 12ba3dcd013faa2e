/**
 * The Unsubscribe link in a reminder's body, taken from the e-mail as sent: it opens the
 * /unsubscribe page with its button (never cached), opening it changes nothing (mail scanners
 * open links), the button stops the e-mails, and the one-click List-Unsubscribe POST still works.
 */
import assert from "node:assert/strict";
import { listOutbox, type OutboxMessage } from "@/lib/db/outbox.ts";
import { REMINDER_BEFORE_MS, runNotifications } from "@/lib/notify/run.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry, type TestCompetition } from "@/tests/helpers/fixtures.ts";

/** An entry opted in to both e-mails, and its deadline reminder as the outbox holds it. */
async function reminderFor(app: TestApp, c: TestCompetition) {
  const entry = await makeEntry(app.kv, c);
  const res = await app.request(`/api/notifications/${entry.editToken}`, {
    method: "PUT",
    json: { deadlineEmail: true, resultEmail: true },
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const inHour = new Date(Date.parse(c.deadline!) - REMINDER_BEFORE_MS + 60_000);
  await runNotifications(app.services, TEST_ORIGIN, inHour);
  const mail = (await listOutbox(app.kv)).find((m: OutboxMessage) =>
    m.to === entry.email && m.about?.startsWith("notify:deadlineEmail")
  );
  assert.ok(mail, "the reminder was sent");
  return { entry, mail };
}

/** The href of the body's "Unsubscribe" link, and the same link in the text part. */
function bodyLinks(mail: OutboxMessage): { html: string; text: string } {
  const html = /<a href="([^"]+)">Unsubscribe<\/a>/.exec(mail.html ?? "")?.[1];
  assert.ok(html, "an Unsubscribe link in the HTML body");
  const lines = mail.text.trim().split("\n");
  return { html: html.replaceAll("&amp;", "&"), text: lines[lines.length - 1] };
}

const local = (url: string) => new URL(url).pathname + new URL(url).search;

async function optIns(app: TestApp, editToken: string) {
  const view = await readJsonBody(await app.request(`/api/notifications/${editToken}`));
  return { deadline: view.deadlineEmail !== null, result: view.resultEmail !== null };
}

Deno.test("[unsubscribe] the body link opens the page with its button; opening it changes nothing", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const { entry, mail } = await reminderFor(app, c);
    const links = bodyLinks(mail);
    assert.equal(links.text, links.html, "the text and HTML parts give the same link");
    assert.equal(new URL(links.html).pathname, "/unsubscribe");

    for (let i = 0; i < 2; i++) { // a scanner, then the person
      const page = await app.request(local(links.html));
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /text\/html/);
      assert.equal(page.headers.get("cache-control"), "no-store");
      const html = await page.text();
      assert.match(html, /Stop these e-mails\?/);
      assert.match(html, /<button[^>]*type="submit"[^>]*>Unsubscribe<\/button>/);
      assert.deepEqual(await optIns(app, entry.editToken!), { deadline: true, result: true });
    }
    // A scanner that follows the one-click address with a GET changes nothing either.
    const oneClick = mail.headers!["List-Unsubscribe"].slice(1, -1);
    const got = await app.request(local(oneClick));
    await got.body?.cancel();
    assert.notEqual(got.status, 200);
    assert.deepEqual(await optIns(app, entry.editToken!), { deadline: true, result: true });

    // The page's button posts its form.
    const html = await (await app.request(local(links.html))).text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    assert.ok(action, "the page has the button's form");
    const res = await app.request(action, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    await res.body?.cancel();
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/unsubscribe?done=1");
    assert.deepEqual(await optIns(app, entry.editToken!), { deadline: false, result: false });
  } finally {
    await app.close();
  }
});

Deno.test("[unsubscribe] the one-click List-Unsubscribe POST from the e-mail still works", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const { entry, mail } = await reminderFor(app, c);
    assert.equal(mail.headers?.["List-Unsubscribe-Post"], "List-Unsubscribe=One-Click");
    const oneClick = mail.headers!["List-Unsubscribe"].slice(1, -1);
    const res = await app.request(local(oneClick), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    assert.equal(res.status, 200);
    assert.match((await res.json()).message, /no more of these e-mails/);
    assert.deepEqual(await optIns(app, entry.editToken!), { deadline: false, result: false });
  } finally {
    await app.close();
  }
});
