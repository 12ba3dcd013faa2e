/**
 * KV round trips per request, counted by a store that notes each one (tests/helpers/latency_kv.ts):
 * on a remote store (Deno Deploy) each costs a network round trip, so a kept public answer must
 * cost one read, and the paid entry a handful on its critical path.
 */
import assert from "node:assert/strict";
import { makeTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, SUCCESS_CARD, validPicks } from "@/tests/helpers/fixtures.ts";
import { RoundTrips, withLatency } from "@/tests/helpers/latency_kv.ts";
import { listOutbox } from "@/lib/db/outbox.ts";

/** The round trips `run` made, with their trace. */
async function counted(counter: RoundTrips, run: () => Promise<Response>) {
  counter.trace = [];
  const before = counter.snapshot();
  const res = await run();
  await res.body?.cancel();
  const after = counter.snapshot();
  const trace = counter.trace;
  counter.trace = null;
  return {
    status: res.status,
    total: after.total - before.total,
    sequential: after.sequential - before.sequential,
    strong: after.strong - before.strong,
    trace,
  };
}

async function countingApp(): Promise<{ app: TestApp; counter: RoundTrips }> {
  const counter = new RoundTrips();
  const app = await makeTestApp({ wrapKv: (kv) => withLatency(kv, 0, counter) });
  return { app, counter };
}

Deno.test("[round trips] a kept public answer costs one KV read", async (t) => {
  const { app, counter } = await countingApp();
  try {
    const c = await makeCompetition(app.kv, { name: "Round Trip Cup" });
    const pages = [
      "/",
      `/team-selection/${c.id}`,
      `/payment/${c.id}`,
      `/leaderboard/${c.id}`,
      "/api/competitions",
      `/api/competitions/${c.id}`,
      `/api/competitions/${c.id}/players`,
      `/api/competitions/${c.id}/prizes`,
    ];
    for (const path of pages) {
      await t.step(path, async () => {
        const first = await counted(counter, () => app.request(path)); // rendered and kept
        if (!path.startsWith("/leaderboard/")) {
          const strong = first.trace.filter((line) => !line.endsWith("(eventual)"));
          assert.deepEqual(strong, [], `${path} renders from eventual reads`);
        }
        let again = await counted(counter, () => app.request(path));
        // A kept answer lives until the end of its 10 s slot: on a slow machine the first two
        // requests may straddle that end, and the one after is kept again.
        if (again.total > 1) again = await counted(counter, () => app.request(path));
        assert.equal(again.status, 200);
        assert.equal(again.total, 1, `${path}: ${again.trace.join(" | ")}`);
      });
    }
  } finally {
    await app.close();
  }
});

Deno.test("[round trips] the whole paid path waits on at most 6 strong round trips", async () => {
  const { app, counter } = await countingApp();
  try {
    const c = await makeCompetition(app.kv, { name: "Paid Trip Cup" });
    const buyer = { email: "trip@example.com", teamName: "Trip Team", playerIds: validPicks(c) };
    // From a client address, so the limits per address are counted too.
    const from = "203.0.113.7";
    let paymentIntentId = "";
    const intent = await counted(counter, async () => {
      const res = await app.request("/api/create-payment-intent", {
        method: "POST",
        json: { competitionId: c.id, ...buyer },
        from,
      });
      paymentIntentId = (await res.clone().json()).paymentIntentId;
      return res;
    });
    const confirm = await counted(counter, () =>
      app.request("/api/test-payments/confirm", {
        method: "POST",
        json: { paymentIntentId, cardNumber: SUCCESS_CARD },
        from,
      }));
    const entry = await counted(counter, () =>
      app.request("/api/entries", {
        method: "POST",
        json: { competitionId: c.id, ...buyer, stripePaymentId: paymentIntentId },
        from,
      }));
    for (const [name, step] of Object.entries({ intent, confirm, entry })) {
      console.log(
        `${name}: ${step.total} round trips, ${step.sequential} sequential, ${step.strong} strong`,
      );
      for (const line of step.trace) console.log(`  ${line}`);
    }
    assert.equal(intent.status, 200);
    assert.equal(confirm.status, 200);
    assert.equal(entry.status, 201);
    const trace = [...intent.trace, "--", ...confirm.trace, "--", ...entry.trace].join(" | ");
    assert.ok(intent.strong + confirm.strong + entry.strong <= 6, trace);
    // The confirmation e-mail was kept with the entry, in its commit.
    const [mail] = await listOutbox(app.kv);
    assert.equal(mail.to, buyer.email);
    assert.match(mail.text, /Trip Team/);
  } finally {
    await app.close();
  }
});
