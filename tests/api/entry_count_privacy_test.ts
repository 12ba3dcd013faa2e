/**
 * "Entry n of m" at checkout tells no one whether another address has entered: a stranger who
 * types an entrant's address hears what any fresh address hears, from the count look-up and from
 * opening a payment alike. The count is of the entries this browser proves it holds (their edit
 * secrets) for the address typed.
 */
import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
  validTeams,
} from "@/tests/helpers/fixtures.ts";

/** A paid entry of `email` through the API; its edit secret. */
async function enter(app: TestApp, c: TestCompetition, email: string, team: number) {
  const paymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", {
    method: "POST",
    json: { ...entryBody(c, paymentId), email, playerIds: validTeams(c)[team] },
  });
  assert.equal(res.status, 201);
  return (await readJsonBody(res)).editToken as string;
}

/** Every way the checkout asks about an address, as a stranger can: status and body each. */
async function probe(app: TestApp, c: TestCompetition, email: string) {
  const answers: unknown[] = [];
  const q = encodeURIComponent(email);
  const get = await app.request(`/api/competitions/${c.id}/entry-count?email=${q}`);
  answers.push(get.status, await get.text());
  const post = await app.request(`/api/competitions/${c.id}/entry-count`, {
    method: "POST",
    json: { email },
  });
  answers.push(post.status, await post.text());
  const intent = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: {
      competitionId: c.id,
      email,
      teamName: `Probe ${crypto.randomUUID().slice(0, 6)}`,
      playerIds: validTeams(c)[2],
    },
  });
  const opened = await readJsonBody(intent);
  answers.push(intent.status, opened.entryNumber ?? null, opened.entriesAllowed ?? null);
  return answers;
}

Deno.test("[entry count] a stranger learns nothing of whether an address has entered", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    await updateCompetition(app.kv, c.id, { maxEntriesPerPerson: 3 });
    await enter(app, c, "victim@example.com", 0);
    for (const spelling of ["victim@example.com", "Victim+x@Example.com"]) {
      assert.deepEqual(
        await probe(app, c, spelling),
        await probe(app, c, `nobody${crypto.randomUUID().slice(0, 6)}@example.com`),
        spelling,
      );
    }
  });
});

Deno.test("[entry count] the entries this browser holds count, for the address typed only", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    await updateCompetition(app.kv, c.id, { maxEntriesPerPerson: 3 });
    const other = await makeCompetition(app.kv);
    const mine = await enter(app, c, "fan@example.com", 0);
    const theirs = await enter(app, c, "someone@example.com", 1);
    const elsewhere = await enter(app, other, "fan@example.com", 0);
    const count = async (email: string, editTokens: string[]) => {
      const res = await app.request(`/api/competitions/${c.id}/entry-count`, {
        method: "POST",
        json: { email, editTokens },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      return await readJsonBody(res);
    };
    assert.deepEqual(await count("fan@example.com", []), { entryNumber: 1, entriesAllowed: 3 });
    const held = [mine, mine, theirs, elsewhere, "not-a-secret"];
    assert.deepEqual(await count("Fan+phone@example.com", held), {
      entryNumber: 2,
      entriesAllowed: 3,
    });
    assert.deepEqual(await count("someone@example.com", held), {
      entryNumber: 2,
      entriesAllowed: 3,
    });
    const bad = await app.request(`/api/competitions/${c.id}/entry-count`, {
      method: "POST",
      json: { email: "not-an-address", editTokens: [] },
    });
    assert.equal(bad.status, 400);
    assert.equal((await readJsonBody(bad)).issues?.[0]?.path?.[0], "email");
  });
});
