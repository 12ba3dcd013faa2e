import assert from "node:assert/strict";
import { getCompetition } from "@/lib/db/competitions.ts";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import type { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeTestApp, readJsonBody } from "@/tests/helpers/app.ts";
import { entryBody, makeCompetition, payTestIntent } from "@/tests/helpers/fixtures.ts";

Deno.test("[concurrency] 20 parallel paid entries into maxEntries 10: 10 in, 10 refunded", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv, { maxEntries: 10 });
    const payments: string[] = [];
    for (let i = 0; i < 20; i++) payments.push(await payTestIntent(app, c.id));
    const answers = await Promise.all(payments.map(async (paymentId, i) => {
      const res = await app.request("/api/entries", {
        method: "POST",
        json: {
          ...entryBody(c, paymentId),
          email: `fan${i + 1}@example.com`,
          teamName: `Team ${i + 1}`,
        },
      });
      return { paymentId, status: res.status, body: await readJsonBody(res) };
    }));
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 409);
    assert.equal(created.length, 10);
    assert.equal(refused.length, 10);
    for (const answer of refused) {
      assert.equal(
        answer.body.message,
        "This competition is full. Your payment has been refunded.",
      );
    }
    const provider = app.services.payments as TestPaymentProvider;
    for (const answer of refused) assert.equal(await provider.isRefunded(answer.paymentId), true);
    for (const answer of created) assert.equal(await provider.isRefunded(answer.paymentId), false);
    const entries = await listEntriesByCompetition(app.kv, c.id);
    assert.equal(entries.length, 10);
    assert.equal(new Set(entries.map((e) => e.teamId)).size, 10);
    assert.equal((await getCompetition(app.kv, c.id))?.currentEntries, 10);
  } finally {
    await app.close();
  }
});

Deno.test("[concurrency] the same payment submitted twice in parallel makes one entry", async () => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const paymentId = await payTestIntent(app, c.id);
    const answers = await Promise.all([0, 1, 2].map(async () => {
      const res = await app.request("/api/entries", {
        method: "POST",
        json: entryBody(c, paymentId),
      });
      return { status: res.status, body: await readJsonBody(res) };
    }));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 201]);
    assert.equal(new Set(answers.map((a) => a.body.teamId)).size, 1);
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
    assert.equal((await getCompetition(app.kv, c.id))?.currentEntries, 1);
  } finally {
    await app.close();
  }
});
