/**
 * Cancelling a big competition is a background job that survives its process: a kill -9 in the
 * middle of 2,000 refunds, a restart, and every entry ends refunded exactly once.
 */
import assert from "node:assert/strict";
import { createEntry, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { getRefunds } from "@/lib/db/refunds.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeCompetition, validPicks } from "@/tests/helpers/fixtures.ts";
import { type RunningServer, startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const ENTRIES = 2_000;
const ADMIN = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

/** A store with one competition of ENTRIES paid entries (test-mode payments), by distinct fans. */
async function bigContest(path: string): Promise<number> {
  const kv = await Deno.openKv(path);
  try {
    const c = await makeCompetition(kv, { name: "Big Cup", entryFee: 5 });
    const provider = new TestPaymentProvider(kv);
    for (let start = 0; start < ENTRIES; start += 100) {
      await Promise.all(Array.from({ length: 100 }, async (_, i) => {
        const n = start + i;
        const intent = await provider.createIntent({
          amount: 500,
          currency: "usd",
          metadata: { competitionId: String(c.id) },
        });
        await provider.confirm(intent.id, "4242 4242 4242 4242");
        await createEntry(kv, {
          competitionId: c.id,
          email: `fan${n}@example.com`,
          teamName: `Fan ${n}`,
          playerIds: validPicks(c),
          stripePaymentId: intent.id,
          charge: { amount: 500, currency: "usd" },
        });
      }));
    }
    return c.id;
  } finally {
    kv.close();
  }
}

function serverOn(path: string): Promise<RunningServer> {
  return startServer({ env: { DENO_KV_PATH: path, DEMO_DATA: "0", DENO_JOBS: "1" } });
}

async function job(base: string, cid: number) {
  const res = await fetch(`${base}/api/admin/competitions/${cid}/cancellation`, { headers: ADMIN });
  assert.equal(res.status, 200);
  return await res.json();
}

Deno.test("[cancel] kill -9 in the middle of a 2,000-entry cancellation: after a restart every entry is refunded exactly once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cancel-crash-" });
  const path = `${dir}/store.kv`;
  const cid = await bigContest(path);
  const first = await serverOn(path);
  try {
    const res = await fetch(`${first.url}/api/admin/competitions/${cid}/cancel`, {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ reason: "The match was postponed." }),
    });
    assert.equal(res.status, 202, "2,000 refunds go on in the background");
    const answer = await res.json();
    assert.equal(answer.competition.status, "CANCELLED");
    await waitFor(
      "300 refunds processed",
      async () => (await job(first.url, cid)).processed >= 300,
      {
        timeoutMs: 60_000,
      },
    );
  } finally {
    await first.kill();
  }
  const kv = await Deno.openKv(path);
  try {
    const stored = (await kv.get<{ processed: number; finishedAt: string | null }>([
      "jobs",
      "cancel",
      cid,
    ])).value!;
    assert.ok(stored.processed < ENTRIES, `killed mid-way (${stored.processed} processed)`);
    assert.equal(stored.finishedAt, null);

    const second = await serverOn(path);
    try {
      const ended = await waitFor("the job resumed and finished", async () => {
        const now = await job(second.url, cid);
        return now.finishedAt !== null && now;
      }, { timeoutMs: 120_000, everyMs: 500 });
      assert.deepEqual([ended.total, ended.refunded, ended.pending], [ENTRIES, ENTRIES, 0]);
    } finally {
      await second.stop();
    }

    const entries = await listEntriesByCompetition(kv, cid);
    assert.equal(entries.length, ENTRIES);
    const refunds = await getRefunds(kv, entries.map((e) => e.stripePaymentId));
    assert.equal(refunds.size, ENTRIES, "one refund record per payment");
    for (const refund of refunds.values()) {
      assert.equal(refund.status, "DONE");
      assert.equal(refund.amount, 500);
    }
    const provider = new TestPaymentProvider(kv);
    for (const entry of entries) {
      assert.equal(await provider.isRefunded(entry.stripePaymentId), true, entry.teamId);
    }
    const books = await reconcile({ kv, payments: provider });
    assert.deepEqual(books.discrepancies, []);
    const usd = books.ledger.totals.find((l) => l.currency === "usd")!;
    assert.deepEqual([usd.collected, usd.refunded, usd.entriesKept], [
      ENTRIES * 500,
      ENTRIES * 500,
      0,
    ]);

    const told = new Map<string, number>();
    for (const mail of await listOutbox(kv)) {
      if (!mail.subject.includes("was cancelled")) continue;
      for (const to of [mail.to].flat()) told.set(to, (told.get(to) ?? 0) + 1);
    }
    assert.ok([...told.values()].every((n) => n === 1), "nobody is told twice");
    // An e-mail claimed at the very moment of the kill may be lost: at most one per worker.
    assert.ok(told.size >= ENTRIES - 8, `${told.size} of ${ENTRIES} entrants told`);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
