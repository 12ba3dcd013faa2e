import assert from "node:assert/strict";
import { readJsonBody } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry, withAdminApp } from "@/tests/helpers/fixtures.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { keys } from "@/lib/store/keys.ts";
import { migrateEntriesByEmail } from "@/lib/db/entries_by_email.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { FIND_ENTRIES_SENT } from "@/routes/api/my-entries/email.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

Deno.test("[my entries] summaries of the browser's own team ids", async (t) => {
  await withAdminApp(async (app) => {
    const upcoming = await makeCompetition(app.kv, { name: "Upcoming Cup" });
    const live = await makeCompetition(app.kv, { name: "Live Cup" });
    const a = await makeEntry(app.kv, upcoming, { teamName: "Alpha" });
    const b = await makeEntry(app.kv, live, { teamName: "Bravo" });
    await updateCompetition(app.kv, live.id, { status: "LIVE" });
    await t.step("known ids answer, newest first; unknown ones are left out", async () => {
      const res = await app.request(`/api/my-entries?teamIds=${a.teamId},FFT-NOPE,${b.teamId}`);
      assert.equal(res.status, 200);
      const list = await readJsonBody(res);
      assert.deepEqual(list.map((s: { teamId: string }) => s.teamId), [b.teamId, a.teamId]);
      assert.equal(list[0].competition.name, "Live Cup");
      assert.equal(list[0].rank, 1);
      assert.equal(list[0].points, 0);
      assert.equal(list[1].rank, null);
      assert.doesNotMatch(JSON.stringify(list), /fan\d+@/, "no full address");
      assert.match(list[0].maskedEmail, /^f\*\*\*@example\.com$/);
    });
    await t.step("a hostile id list is a 400", async () => {
      const res = await app.request("/api/my-entries?teamIds=%3Cscript%3E");
      assert.equal(res.status, 400);
      await res.body?.cancel();
    });
  });
});

/** The outbox once it holds `n` messages (the find-my-entries mail goes after the answer). */
async function outboxOf(kv: Deno.Kv, n: number) {
  return await waitFor(`${n} mails in the outbox`, async () => {
    const mails = await listOutbox(kv);
    return mails.length >= n && mails;
  });
}

Deno.test("[my entries] the answer does not wait for the mail: its timing tells nothing", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Timing Cup" });
    await makeEntry(app.kv, c, { email: "slow@example.com" });
    // A mail server that takes every message but holds it (the edge of the world) until the
    // test lets go: an answer that waited for the mail could not come while it is held.
    const mailer = app.services.mailer;
    const send = mailer.send.bind(mailer);
    const held = Promise.withResolvers<void>();
    let handedOver = 0;
    mailer.send = async (message) => {
      handedOver++;
      await held.promise;
      return await send(message);
    };
    const ask = async (email: string, ip: string) => {
      const res = await app.handler(
        new Request("http://localhost/api/my-entries/email", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email }),
        }),
        { remoteAddr: { transport: "tcp", hostname: ip, port: 1 } } as Deno.ServeHandlerInfo,
      );
      return { status: res.status, body: await res.text() };
    };
    const withEntries = await ask("slow@example.com", "10.9.0.1");
    const without = await ask("none@example.com", "10.9.0.2");
    assert.equal(withEntries.status, 202);
    assert.deepEqual(without, withEntries, "the same answer either way");
    await waitFor("the mail handed over", () => handedOver >= 1);
    assert.equal((await outboxOf(app.kv, 0)).length, 0, "answered while the mail is held");
    held.resolve();
    const [mail] = await outboxOf(app.kv, 1);
    assert.equal(mail.to, "slow@example.com", "the mail still goes");
  });
});

Deno.test("[my entries] find by e-mail: same answer either way, a list only to that address", async (t) => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Mail Cup" });
    const mine = await makeEntry(app.kv, c, { email: "Jane@Example.com", teamName: "Jane" });
    await makeEntry(app.kv, c, { email: "other@example.com" });
    const ask = (email: string, ip = "10.0.0.1") =>
      app.handler(
        new Request("http://localhost/api/my-entries/email", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email }),
        }),
        { remoteAddr: { transport: "tcp", hostname: ip, port: 1 } } as Deno.ServeHandlerInfo,
      );
    await t.step("an address with entries gets them, with links", async () => {
      const res = await ask("jane@example.com");
      assert.equal(res.status, 202);
      assert.deepEqual(await readJsonBody(res), { message: FIND_ENTRIES_SENT });
      const [mail] = await outboxOf(app.kv, 1);
      assert.equal(mail.to, "jane@example.com");
      assert.match(mail.text, new RegExp(`Mail Cup: Jane \\(${mine.teamId}\\)`));
      assert.match(mail.text, new RegExp(`/confirmation/${mine.teamId}`));
      assert.match(mail.text, new RegExp(`/my-entries\\?add=${mine.teamId}`));
      assert.match(
        mail.text,
        /Change your team \(until \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC\): /,
        "an open team can be changed, until a named time",
      );
      assert.ok(mail.text.includes(`/edit/${mine.editToken}`));
      assert.equal(mail.text.includes("other@example.com"), false);
    });
    await t.step("an address without entries gets the same answer and no mail", async () => {
      const res = await ask("nobody@example.com", "10.0.0.2");
      assert.equal(res.status, 202);
      assert.deepEqual(await readJsonBody(res), { message: FIND_ENTRIES_SENT });
      assert.equal((await listOutbox(app.kv)).length, 1);
    });
    await t.step("rate limited per address and per client", async () => {
      for (let i = 0; i < 2; i++) {
        await (await ask("jane@example.com", `10.1.0.${i}`)).body?.cancel();
      }
      const perAddress = await ask("jane@example.com", "10.1.0.9");
      assert.equal(perAddress.status, 429);
      await perAddress.body?.cancel();
      for (let i = 0; i < 5; i++) await (await ask(`x${i}@example.com`, "10.2.0.1")).body?.cancel();
      const perClient = await ask("y@example.com", "10.2.0.1");
      assert.equal(perClient.status, 429);
      assert.match((await readJsonBody(perClient)).message, /Too many requests/);
    });
    await t.step("a bad address is a 400 naming the field", async () => {
      const res = await ask("not-an-email", "10.3.0.1");
      assert.equal(res.status, 400);
      assert.deepEqual((await readJsonBody(res)).issues[0].path, ["email"]);
    });
  });
});

Deno.test("[my entries] the e-mail index is back-filled once for older entries", async () => {
  await withAdminApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const entry = await makeEntry(app.kv, c, { email: "old@example.com" });
    await app.kv.delete(keys.entryByEmail(entry.email, entry.id));
    assert.equal(await migrateEntriesByEmail(app.kv), 1);
    assert.equal(
      (await app.kv.get(keys.entryByEmail("OLD@example.com", entry.id))).value,
      entry.id,
    );
    assert.equal(await migrateEntriesByEmail(app.kv), 0);
  });
});
