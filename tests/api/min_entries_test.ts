import assert from "node:assert/strict";
import { getCompetition, updateCompetition } from "@/lib/db/competitions.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import type { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeCompetition,
  payTestIntent,
  type TestCompetition,
} from "@/tests/helpers/fixtures.ts";

let fan = 0;
async function enter(app: TestApp, c: TestCompetition): Promise<string> {
  const paymentId = await payTestIntent(app, c.id);
  const res = await app.request("/api/entries", {
    method: "POST",
    json: { ...entryBody(c, paymentId), email: `min${++fan}@example.com` },
  });
  assert.equal(res.status, 201);
  await res.body?.cancel();
  return paymentId;
}

Deno.test("[min entries] at the deadline a contest below its minimum is cancelled and refunded", async () => {
  const app = await makeTestApp();
  try {
    const short = await makeCompetition(app.kv, { name: "Too Few", minEntries: 3 });
    const enough = await makeCompetition(app.kv, { name: "Just Enough", minEntries: 2 });
    const later = await makeCompetition(app.kv, { name: "Not Yet", minEntries: 5 });
    const paid = [await enter(app, short), await enter(app, short)];
    await enter(app, enough);
    await enter(app, enough);
    await enter(app, later);
    const past = new Date(Date.now() - 60_000).toISOString();
    await updateCompetition(app.kv, short.id, { deadline: past });
    await updateCompetition(app.kv, enough.id, { deadline: past });

    await sweepPayments(app.services, TEST_ORIGIN);

    const cancelled = await getCompetition(app.kv, short.id);
    assert.equal(cancelled?.status, "CANCELLED");
    assert.equal(cancelled?.cancelReason, "Not enough entries: 2 of the 3 needed.");
    const provider = app.services.payments as TestPaymentProvider;
    for (const id of paid) {
      assert.equal((await getRefund(app.kv, id))?.status, "DONE");
      assert.equal(await provider.isRefunded(id), true);
    }
    const mails = (await listOutbox(app.kv)).filter((m) => m.subject.includes("was cancelled"));
    assert.equal(mails.length, 2);
    assert.match(mails[0].text, /Not enough entries: 2 of the 3 needed\./);
    assert.equal((await getCompetition(app.kv, enough.id))?.status, "UPCOMING", "it has its 2");
    assert.equal((await getCompetition(app.kv, later.id))?.status, "UPCOMING", "deadline ahead");

    await sweepPayments(app.services, TEST_ORIGIN);
    const again = (await listOutbox(app.kv)).filter((m) => m.subject.includes("was cancelled"));
    assert.equal(again.length, 2, "a second sweep repeats nothing");
  } finally {
    await app.close();
  }
});

Deno.test("[min entries] the competition API takes minEntries and refuses one above maxEntries", async () => {
  const app = await makeTestApp();
  try {
    const { makeAdminHeaders } = await import("@/tests/helpers/fixtures.ts");
    const admin = await makeAdminHeaders(app.kv);
    const form = {
      name: "Min Cup",
      league: "PREMIER_LEAGUE",
      entryFee: "5",
      prizePool: "50",
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const ok = await app.request("/api/admin/competitions", {
      method: "POST",
      headers: admin,
      json: { ...form, minEntries: 4, maxEntries: 10 },
    });
    assert.equal(ok.status, 201);
    const created = await readJsonBody(ok);
    assert.equal((await getCompetition(app.kv, created.id))?.minEntries, 4);
    const bad = await app.request("/api/admin/competitions", {
      method: "POST",
      headers: admin,
      json: { ...form, minEntries: 11, maxEntries: 10 },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual((await readJsonBody(bad)).issues[0].path, ["minEntries"]);
  } finally {
    await app.close();
  }
});
