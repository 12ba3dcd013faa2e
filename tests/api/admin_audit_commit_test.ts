/**
 * An admin change made in one KV commit is logged in that same commit: the changed record and
 * its activity record carry the same versionstamp, so a crash can never keep one without the
 * other. Changes of several commits (a cancellation's refunds, a completion's awards) are logged
 * by their first commit, or right after the request where no write function takes the stamp.
 */
import assert from "node:assert/strict";
import { type AuditEntry, listAudit } from "@/lib/db/audit.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry, withAdminApp } from "@/tests/helpers/fixtures.ts";

/** The records of one request (newest first). */
async function recordsOf(app: TestApp, request: string): Promise<AuditEntry[]> {
  return (await listAudit(app.kv)).filter((e) => e.request === request);
}

/** The versionstamp of an activity record. */
async function stampOf(app: TestApp, record: AuditEntry): Promise<string | null> {
  return (await app.kv.get(keys.audit(record.id))).versionstamp;
}

Deno.test("[audit] a change and its activity record are one commit", async (t) => {
  await withAdminApp(async (app, admin) => {
    const c = await makeCompetition(app.kv, { name: "Audit Cup", entryFee: 5 });
    const entry = await makeEntry(app.kv, c, { email: "ann@example.com" });

    await t.step("updating a competition", async () => {
      const { id: _id, players: _p, teams: _t, currentEntries: _n, createdAt: _c, ...form } = c;
      const res = await app.request(`/api/admin/competitions/${c.id}`, {
        method: "PUT",
        headers: admin,
        json: { ...form, name: "Audit Cup Renamed" },
      });
      assert.equal(res.status, 200, await res.clone().text());
      await res.body?.cancel();
      const records = await recordsOf(app, `PUT /api/admin/competitions/${c.id}`);
      assert.equal(records.length, 1, "logged once");
      assert.deepEqual(
        [records[0].action, records[0].before, records[0].after],
        ["Update competition", { name: "Audit Cup" }, { name: "Audit Cup Renamed" }],
      );
      const saved = await app.kv.get(keys.competition(c.id));
      assert.equal(await stampOf(app, records[0]), saved.versionstamp, "the same commit");
    });

    await t.step("refunding an entry", async () => {
      // The entry's payment record says it was paid (makeEntry made it without a provider).
      const path = `/api/admin/competitions/${c.id}/entries/${entry.teamId}/refund`;
      const res = await app.request(path, {
        method: "POST",
        headers: admin,
        json: { reason: "Paid twice" },
      });
      assert.equal(res.status, 200, await res.clone().text());
      await res.body?.cancel();
      const [record, ...more] = await recordsOf(app, `POST ${path}`);
      assert.equal(more.length, 0, "logged once");
      assert.equal(record.action, "Refund entry");
      assert.equal(record.reason, "Paid twice");
      const refunded = await app.kv.get(keys.entry(entry.id));
      assert.equal(await stampOf(app, record), refunded.versionstamp, "the same commit");
    });

    await t.step("cancelling: the status change's commit holds the record", async () => {
      const res = await app.request(`/api/admin/competitions/${c.id}/cancel`, {
        method: "POST",
        headers: admin,
        json: { reason: "The match was postponed." },
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      const records = await recordsOf(app, `POST /api/admin/competitions/${c.id}/cancel`);
      assert.equal(records.length, 1);
      assert.deepEqual(
        [records[0].action, records[0].after?.status, records[0].reason],
        ["Change status", "CANCELLED", "The match was postponed."],
      );
      const cancelled = await app.kv.get(keys.competition(c.id));
      assert.equal(await stampOf(app, records[0]), cancelled.versionstamp);
    });

    await t.step("recording a payout", async () => {
      const won = await makeCompetition(app.kv, { name: "Payout Cup", entryFee: 5 });
      const winner = await makeEntry(app.kv, won, { email: "bob@example.com" });
      await setPrizeStructure(app.kv, won.id, [{ position: 1, prize: 30 }]);
      await updateCompetition(app.kv, won.id, { status: "COMPLETED" });
      const path = `/api/admin/payouts/${won.id}/${winner.id}/paid`;
      const res = await app.request(path, {
        method: "POST",
        headers: admin,
        json: { reference: "BANK-001" },
      });
      assert.equal(res.status, 200, await res.clone().text());
      await res.body?.cancel();
      const [record, ...more] = await recordsOf(app, `POST ${path}`);
      assert.equal(more.length, 0);
      assert.deepEqual([record.action, record.after?.status], ["Record payout", "PAID"]);
      const paid = await app.kv.get(keys.payout(won.id, winner.id));
      assert.equal(await stampOf(app, record), paid.versionstamp, "the same commit");
    });

    await t.step("a refused change leaves no record", async () => {
      const before = (await listAudit(app.kv)).length;
      const res = await app.request(
        `/api/admin/competitions/${c.id}/entries/${entry.teamId}/refund`,
        { method: "POST", headers: admin, json: { reason: "Again" } },
      );
      assert.equal(res.status, 409);
      await res.body?.cancel();
      assert.equal((await listAudit(app.kv)).length, before);
    });

    await t.step("a write without a stamp is still logged, right after the request", async () => {
      const res = await app.request("/api/admin/teams", {
        method: "POST",
        headers: admin,
        json: { name: "Logged United", shortName: "LGU", league: "PREMIER_LEAGUE" },
      });
      assert.equal(res.status, 201, await res.clone().text());
      const team = await readJsonBody(res);
      const [record] = await recordsOf(app, "POST /api/admin/teams");
      assert.equal(record.action, "Create club");
      assert.equal(record.after?.name, team.name);
    });
  });
});
