/**
 * One refund survives its process: kill -9 at 20 random points of an admin's single-entry
 * refund (decision, provider refund, its confirmation, the entrant's e-mail), then the payment
 * sweep (and the admin's retry, refused once the refund was decided): the payment is refunded
 * exactly once, the entrant has exactly one e-mail, and the books balance, also against the
 * provider's own records.
 */
import assert from "node:assert/strict";
import { getCompetition } from "@/lib/db/competitions.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { getRefund, listRefunds } from "@/lib/db/refunds.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeCompetition } from "@/tests/helpers/fixtures.ts";
import { copyStore, paidFan, runWorker } from "@/tests/helpers/worker_runs.ts";

const FANS = 4;
const RUNS = 20;

Deno.test(`[refund] kill -9 at ${RUNS} random points of a single refund: after a restart it is refunded and told exactly once`, async () => {
  const dir = await Deno.makeTempDir({ prefix: "refund-crash-" });
  try {
    const template = `${dir}/template.kv`;
    const kv = await Deno.openKv(template);
    const c = await makeCompetition(kv, { name: "Refund Cup", entryFee: 5 });
    const teams: string[] = [];
    for (let n = 0; n < FANS; n++) teams.push(await paidFan(kv, c, n));
    kv.close();
    const target = teams[1];
    // One run without a kill gives the refund's length, over which the kills are spread.
    await copyStore(template, `${dir}/calibrate.kv`);
    const length = await runWorker(["refund", `${dir}/calibrate.kv`, String(c.id), target]) ?? 0;
    const outcomes = { decided: 0, undecided: 0, killedMidway: 0 };
    for (let run = 0; run < RUNS; run++) {
      const path = `${dir}/run${run}.kv`;
      await copyStore(template, path);
      const at = Math.floor(Math.random() * length * 1.1);
      const args = ["refund", path, String(c.id), target];
      if (await runWorker(args, at) === null) outcomes.killedMidway++;
      const store = await Deno.openKv(path);
      try {
        const entry = (await getEntryByTeamId(store, target))!;
        if (entry.refundedAt) outcomes.decided++;
        else outcomes.undecided++;
      } finally {
        store.close();
      }
      // The restart: the admin asks again (refused once decided) and the sweep finishes it.
      await runWorker(args);
      const after = await Deno.openKv(path);
      try {
        const entry = (await getEntryByTeamId(after, target))!;
        const refunds = await listRefunds(after);
        assert.equal(refunds.length, 1, `run ${run} (kill at ${at} ms): one refund record`);
        const refund = (await getRefund(after, entry.stripePaymentId))!;
        assert.deepEqual([refund.status, refund.amount], ["DONE", 500], `run ${run}`);
        assert.ok(refund.notifiedAt && entry.refundedAt, `run ${run}: told and refunded`);
        const provider = new TestPaymentProvider(after);
        for (const team of teams) {
          const e = (await getEntryByTeamId(after, team))!;
          assert.equal(await provider.isRefunded(e.stripePaymentId), team === target, team);
        }
        const mails = (await listOutbox(after)).filter((m) => m.subject.includes("is refunded"));
        assert.deepEqual(mails.map((m) => m.to), ["fan1@example.com"], `run ${run}: told once`);
        assert.equal((await getCompetition(after, c.id))!.currentEntries, FANS - 1);
        const books = await reconcile({ kv: after, payments: provider }, [], { provider: true });
        assert.deepEqual(books.discrepancies, [], `run ${run}`);
        assert.equal(books.pending, 0);
        const usd = books.ledger.totals.find((l) => l.currency === "usd")!;
        assert.deepEqual([usd.collected, usd.refunded, usd.entriesKept], [
          FANS * 500,
          500,
          (FANS - 1) * 500,
        ]);
      } finally {
        after.close();
      }
    }
    console.log(`kills: ${JSON.stringify(outcomes)} (refund length ${length?.toFixed(0)} ms)`);
    assert.ok(outcomes.killedMidway >= RUNS / 4, `${outcomes.killedMidway} kills hit the refund`);
    assert.ok(outcomes.decided > 0, "some kills came after the decision");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
