import assert from "node:assert/strict";
import { listOutbox } from "@/lib/db/outbox.ts";
import { makeTestApp, readJsonBody, TEST_ORIGIN, type TestApp } from "@/tests/helpers/app.ts";

/** POST /api/test-email as if from `ip`. */
function testEmailFrom(app: TestApp, ip: string, body: unknown): Promise<Response> {
  const req = new Request(new URL("/api/test-email", TEST_ORIGIN), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return app.handler(req, {
    remoteAddr: { transport: "tcp", hostname: ip, port: 50_000 },
    completed: Promise.resolve(),
  });
}

Deno.test("[email] POST /api/test-email: at most 5 per address in 10 minutes, then 429", async (t) => {
  const app = await makeTestApp();
  try {
    await t.step("invalid requests send nothing and do not count", async () => {
      for (let i = 0; i < 8; i++) {
        const res = await testEmailFrom(app, "203.0.113.7", { email: "not-an-email" });
        assert.equal(res.status, 400);
        await res.body?.cancel();
      }
    });
    await t.step("five test e-mails are sent", async () => {
      for (let i = 0; i < 5; i++) {
        const res = await testEmailFrom(app, "203.0.113.7", { email: `fan${i}@example.com` });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      }
    });
    await t.step("the sixth is a 429 with Retry-After and a message to show", async () => {
      const res = await testEmailFrom(app, "203.0.113.7", { email: "fan@example.com" });
      assert.equal(res.status, 429);
      const retryAfter = Number(res.headers.get("retry-after"));
      assert.ok(retryAfter > 590 && retryAfter <= 600, `Retry-After: ${retryAfter}`);
      assert.deepEqual(await readJsonBody(res), {
        message: "Too many test emails. Please try again in 10 minutes.",
      });
      assert.equal((await listOutbox(app.kv)).length, 5, "nothing sent for the refusal");
    });
    await t.step("another address is not affected", async () => {
      const res = await testEmailFrom(app, "198.51.100.1", { email: "fan@example.com" });
      assert.equal(res.status, 200);
      await res.body?.cancel();
    });
  } finally {
    await app.close();
  }
});
