/**
 * Limits by person, not by spelling: the entry limit and the identical-team check count an
 * address without its +tag, case-folded, and without dots for Gmail; the checkout's "Entry n of m"
 * comes from GET /api/competitions/:id/entry-count; a migration re-keys the per-person indexes.
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/store/keys.ts";
import { migratePersonKeys } from "@/lib/db/entries_by_email.ts";
import { PERSON_LIMIT_REACHED, SAME_TEAM_AGAIN } from "@/lib/domain/paid_entry.ts";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import {
  makeCompetition,
  makeEntry,
  payTestIntent,
  type TestCompetition,
  validTeams,
} from "@/tests/helpers/fixtures.ts";
import { restoreEntries, saveEntries } from "@/tests/helpers/kv_snapshot.ts";

/** A display name of its own per address (names are unique in a competition). */
const nameOf = (email: string) => `Solo ${email.slice(0, 24)}`;

async function enter(app: TestApp, c: TestCompetition, email: string, playerIds: number[]) {
  const stripePaymentId = await payTestIntent(app, c.id);
  return app.request("/api/entries", {
    method: "POST",
    json: { competitionId: c.id, email, teamName: nameOf(email), playerIds, stripePaymentId },
  });
}

function openIntent(app: TestApp, c: TestCompetition, email: string, playerIds: number[]) {
  return app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId: c.id, email, teamName: nameOf(email), playerIds },
  });
}

Deno.test("[person] the one-entry limit holds against other spellings of the address", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const [first, second] = validTeams(c);
    assert.equal((await enter(app, c, "solo@example.com", first)).status, 201);
    for (const spelling of ["solo+2@example.com", "Solo+Cup@Example.COM", " SOLO@example.com"]) {
      await t.step(`${spelling.trim()}: refused before payment`, async () => {
        const res = await openIntent(app, c, spelling.trim(), second);
        assert.equal(res.status, 409);
        assert.equal((await readJsonBody(res)).message, PERSON_LIMIT_REACHED);
      });
    }
    await t.step("paid anyway (another tab): refunded at commit", async () => {
      const res = await enter(app, c, "solo+3@example.com", second);
      assert.equal(res.status, 409);
      assert.match((await readJsonBody(res)).message, /entry limit/);
    });
    await t.step("Gmail: dots and googlemail.com are the same mailbox", async () => {
      const g = await makeCompetition(app.kv);
      const [team] = validTeams(g);
      assert.equal((await enter(app, g, "jane.doe@gmail.com", team)).status, 201);
      const res = await openIntent(app, g, "J.aneDoe+x@googlemail.com", validTeams(g)[1]);
      assert.equal(res.status, 409);
      // Outside Gmail dots make another mailbox.
      assert.equal((await enter(app, g, "jane.doe@example.com", team)).status, 201);
    });
  });
});

Deno.test("[person] a count the entry queue wrote, deleted since, refuses no payment", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const [team] = validTeams(c);
    const stripePaymentId = await payTestIntent(app, c.id);
    const before = await saveEntries(app.kv);
    const body = {
      competitionId: c.id,
      email: "gone@example.com",
      teamName: nameOf("gone@example.com"),
      playerIds: team,
      stripePaymentId,
    };
    assert.equal((await app.request("/api/entries", { method: "POST", json: body })).status, 201);
    // The entry and its person count are gone from the store; the queue still remembers its write.
    await restoreEntries(app.kv, before);
    const res = await app.request("/api/entries", { method: "POST", json: body });
    assert.equal(res.status, 201, (await readJsonBody(res)).message);
    assert.equal(await app.kv.get(keys.refund(stripePaymentId)).then((e) => e.value), null);
  });
});

Deno.test("[person] the identical-team check counts the person too", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { maxEntriesPerPerson: 3 });
    const [team] = validTeams(c);
    assert.equal((await enter(app, c, "twice@example.com", team)).status, 201);
    const res = await openIntent(app, c, "twice+again@example.com", [...team].reverse());
    assert.equal(res.status, 409);
    assert.equal((await readJsonBody(res)).message, SAME_TEAM_AGAIN);
  });
});

Deno.test("[person] POST /api/competitions/:id/entry-count: the server's count of the entries held, and nothing more", async (t) => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { maxEntriesPerPerson: 3 });
    const held: string[] = [];
    const count = (email: string) =>
      app.request(`/api/competitions/${c.id}/entry-count`, {
        method: "POST",
        json: { email, editTokens: held },
      });
    await t.step("before any entry: entry 1 of 3", async () => {
      const res = await count("fan@example.com");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.deepEqual(await readJsonBody(res), { entryNumber: 1, entriesAllowed: 3 });
    });
    await t.step(
      "after one this browser holds, any spelling of the address: entry 2 of 3",
      async () => {
        const entered = await enter(app, c, "fan@example.com", validTeams(c)[0]);
        assert.equal(entered.status, 201);
        held.push((await readJsonBody(entered)).editToken);
        for (const spelling of ["fan@example.com", "Fan+phone@Example.com"]) {
          assert.deepEqual(await readJsonBody(await count(spelling)), {
            entryNumber: 2,
            entriesAllowed: 3,
          });
        }
      },
    );
    await t.step("bad input: 400 naming the field; unknown competition: 404", async () => {
      const bad = await count("not-an-address");
      assert.equal(bad.status, 400);
      assert.equal((await readJsonBody(bad)).issues?.[0]?.path?.[0], "email");
      const none = await app.request("/api/competitions/999999/entry-count", {
        method: "POST",
        json: { email: "a@b.co" },
      });
      assert.equal(none.status, 404);
      await none.body?.cancel();
    });
    await t.step("one person's look-ups are limited", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) {
        const res = await count("curious@example.com");
        statuses.push(res.status);
        await res.body?.cancel();
      }
      assert.equal(statuses.filter((s) => s === 429).length, 1);
    });
  });
});

Deno.test("[person] the migration re-keys entries counted by their spelling", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const [first, second] = validTeams(c);
    const made = await makeEntry(app.kv, c, { email: "old+tag@example.com", playerIds: first });
    // As an older version kept it: under the address as typed (lower case).
    const signature = [...first].sort((a, b) => a - b).join(",");
    await app.kv.atomic()
      .delete(keys.personEntries(c.id, "old@example.com"))
      .delete(keys.personTeam(c.id, "old@example.com", signature))
      .set(keys.personEntries(c.id, "old+tag@example.com"), 1)
      .set(keys.personTeam(c.id, "old+tag@example.com", signature), made.id)
      .commit();
    assert.equal((await openIntent(app, c, "old@example.com", second)).status, 200);
    await migratePersonKeys(app.kv);
    await migratePersonKeys(app.kv); // idempotent
    assert.equal((await app.kv.get(keys.personEntries(c.id, "old@example.com"))).value, 1);
    assert.equal((await app.kv.get(keys.personEntries(c.id, "old+tag@example.com"))).value, null);
    assert.equal(
      (await app.kv.get(keys.personTeam(c.id, "old@example.com", signature))).value,
      made.id,
    );
    const res = await openIntent(app, c, "old@example.com", second);
    assert.equal(res.status, 409);
    assert.equal((await readJsonBody(res)).message, PERSON_LIMIT_REACHED);
  });
});
