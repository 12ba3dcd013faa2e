import assert from "node:assert/strict";
import { getEntryByTeamId, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { PERSON_LIMIT_REACHED, SAME_TEAM_AGAIN } from "@/lib/domain/paid_entry.ts";
import type { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeAdminHeaders,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
  validTeams,
} from "@/tests/helpers/fixtures.ts";

async function enter(app: TestApp, c: TestCompetition, body: Record<string, unknown>) {
  const paymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", {
    method: "POST",
    json: { ...entryBody(c, paymentId), ...body },
  });
  return { paymentId, status: res.status, body: await readJsonBody(res) };
}

Deno.test("[paid entry] the entry keeps the amount and currency actually charged", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { entryFee: 7.5, currency: "GBP" });
    const { status, body } = await enter(app, c, {});
    assert.equal(status, 201);
    const entry = await getEntryByTeamId(app.kv, body.teamId);
    assert.equal(entry?.amountPaid, 750);
    assert.equal(entry?.currency, "gbp");
  } finally {
    await app.close();
  }
});

Deno.test("[paid entry] one person gets their limit of entries, and never the same team twice", async (t) => {
  const app = await makeTestApp();
  const provider = app.services.payments as TestPaymentProvider;
  try {
    await t.step("by default a second paid entry by the same e-mail is refunded", async () => {
      const c = await makeCompetition(app.kv);
      const [first, second] = validTeams(c);
      const a = await enter(app, c, { email: "sam@example.com", playerIds: first });
      assert.equal(a.status, 201);
      const b = await enter(app, c, { email: " SAM@example.com", playerIds: second });
      assert.equal(b.status, 409);
      assert.equal(b.body.message, `${PERSON_LIMIT_REACHED} Your payment has been refunded.`);
      assert.equal(await provider.isRefunded(b.paymentId), true);
      assert.equal(await provider.isRefunded(a.paymentId), false);
    });
    await t.step("with a raised limit, the same team again is refunded", async () => {
      const c = await makeCompetition(app.kv);
      await updateCompetition(app.kv, c.id, { maxEntriesPerPerson: 3 });
      const [team] = validTeams(c);
      assert.equal((await enter(app, c, { playerIds: team })).status, 201);
      const again = await enter(app, c, { playerIds: [...team].reverse() });
      assert.equal(again.status, 409);
      assert.equal(again.body.message, `${SAME_TEAM_AGAIN} Your payment has been refunded.`);
    });
    await t.step("8 concurrent payments by one person with a limit of 3: 3 entries", async () => {
      const c = await makeCompetition(app.kv);
      await updateCompetition(app.kv, c.id, { maxEntriesPerPerson: 3 });
      const teams = validTeams(c).slice(0, 8);
      const paymentIds = await Promise.all(teams.map(() => payTestIntent(app, c.id)));
      const answers = await Promise.all(paymentIds.map(async (paymentId, i) => {
        const res = await app.request("/api/entries", {
          method: "POST",
          json: {
            ...entryBody(c, paymentId),
            email: "many@example.com",
            teamName: `Many ${i}`,
            playerIds: teams[i],
          },
        });
        return { paymentId, status: res.status, body: await readJsonBody(res) };
      }));
      assert.equal(answers.filter((a) => a.status === 201).length, 3);
      const refused = answers.filter((a) => a.status === 409);
      assert.equal(refused.length, 5);
      for (const a of refused) assert.equal(await provider.isRefunded(a.paymentId), true);
      assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 3);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[competitions] the fee, currency and prize type stay once entries are paid", async () => {
  const app = await makeTestApp();
  try {
    const admin = await makeAdminHeaders(app.kv);
    const c = await makeCompetition(app.kv, { entryFee: 5 });
    const form = {
      name: c.name,
      league: c.league,
      entryFee: "5",
      prizePool: "100",
      currency: "USD",
      prizeType: "CASH",
      deadline: c.deadline,
      status: "UPCOMING",
      maxPlayersPerTeam: 3,
      maxForwards: 2,
      minDefenders: 1,
      salaryCap: 50000,
    };
    const put = (body: Record<string, unknown>) =>
      app.request(`/api/admin/competitions/${c.id}`, {
        method: "PUT",
        headers: admin,
        json: { ...form, ...body },
      });
    const before = await put({ entryFee: "6" });
    assert.equal(before.status, 200, "no entry yet: the fee may change");
    await before.body?.cancel();
    assert.equal((await put({ entryFee: "5" })).status, 200);
    assert.equal((await enter(app, c, {})).status, 201);

    for (
      const [field, value] of [["entryFee", "999999.99"], ["currency", "GBP"], [
        "prizeType",
        "NON_CASH",
      ]]
    ) {
      const res = await put({ [field]: value, customPrizeDescription: "A signed ball" });
      assert.equal(res.status, 409, field);
      const body = await readJsonBody(res);
      assert.match(body.message, /cannot change: this competition has 1 paid entry/);
      assert.deepEqual(body.issues.map((i: { path: string[] }) => i.path), [[field]]);
    }
    const kept = await getCompetition(app.kv, c.id);
    assert.equal(kept?.entryFee, 5);
    assert.equal(kept?.currency, "USD");
    assert.equal(kept?.prizeType, "CASH");
    const renamed = await put({ name: "Renamed Cup" });
    assert.equal(renamed.status, 200, "other fields still change");
    await renamed.body?.cancel();
  } finally {
    await app.close();
  }
});
