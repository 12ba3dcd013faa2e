/**
 * Where an opt-in was given is what the server knows: the route that received it (checkout,
 * confirmation page, My entries), never a `source` the client writes in the body.
 */
import assert from "node:assert/strict";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

async function optIn(app: TestApp, path: string, json: Record<string, unknown>) {
  const res = await app.request(path, { method: "PUT", json });
  assert.equal(res.status, 200, path);
  return await readJsonBody(res);
}

Deno.test("[consent] the client's source is ignored: the receiving route is recorded", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const e = await makeEntry(app.kv, c);
    const base = `/api/notifications/${e.editToken}`;
    const forged = await optIn(app, base, { resultEmail: true, source: "checkout" });
    assert.equal(forged.resultEmail.source, "my-entries");
    const checkout = await optIn(app, `${base}/checkout`, {
      deadlineEmail: true,
      source: "confirmation",
    });
    assert.equal(checkout.deadlineEmail.source, "checkout");
    await optIn(app, base, { resultEmail: false });
    const confirmation = await optIn(app, `${base}/confirmation`, {
      resultEmail: true,
      source: "my-entries",
    });
    assert.equal(confirmation.resultEmail.source, "confirmation");
    assert.equal(confirmation.deadlineEmail.source, "checkout", "a consent on keeps its source");
    const stored = await readJsonBody(await app.request(base));
    assert.equal(stored.resultEmail.source, "confirmation");
  });
});
