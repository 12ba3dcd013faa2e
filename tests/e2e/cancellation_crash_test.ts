/**
 * Cancelling a big competition is a background job that survives its process: a kill -9 in the
 * middle of 2,000 refunds, a restart, and every entry ends refunded exactly once.
 */
import assert from "node:assert/strict";
import { listEntriesByCompetition } from "@/lib/db/entries.ts";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { listPayouts } from "@/lib/db/payout_records.ts";
import { setPrizeStructure } from "@/lib/db/prizes.ts";
import { getRefunds } from "@/lib/db/refunds.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeCompetition } from "@/tests/helpers/fixtures.ts";
import { type RunningServer, startServer } from "@/tests/helpers/server.ts";
import { waitFor } from "@/tests/helpers/wait.ts";
import { copyStore, paidFan, runWorker } from "@/tests/helpers/worker_runs.ts";

const ENTRIES = 2_000;
const ADMIN = { "x-admin-username": "admin", "x-admin-password": "admin-test-password" };

/** A store with one competition of ENTRIES paid entries (test-mode payments), by distinct fans. */
async function bigContest(path: string): Promise<number> {
  const kv = await Deno.openKv(path);
  try {
    const c = await makeCompetition(kv, { name: "Big Cup", entryFee: 5 });
    for (let start = 0; start < ENTRIES; start += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => paidFan(kv, c, start + i)));
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
    // The notice is written in the atomic that records the entrant told: none is lost.
    assert.equal(told.size, ENTRIES, `${told.size} of ${ENTRIES} entrants told`);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

// ---------------------------------------------------------------------------------------------
// Exactly-once notices: 20 kill -9 runs at random points of a cancellation and of a completion.

const SMALL = 30;
const RUNS = 20;

/** A LIVE competition of SMALL paid entries with a five-place cash prize structure. */
async function smallContest(path: string): Promise<number> {
  const kv = await Deno.openKv(path);
  try {
    const c = await makeCompetition(kv, { name: "Small Cup", entryFee: 5 });
    await Promise.all(Array.from({ length: SMALL }, (_, n) => paidFan(kv, c, n)));
    await setPrizeStructure(kv, c.id, [1, 2, 3, 4, 5].map((position) => ({ position, prize: 20 })));
    await updateCompetition(kv, c.id, { status: "LIVE" });
    return c.id;
  } finally {
    kv.close();
  }
}

/** How many outbox messages each recipient got whose subject matches `kind`. */
async function mailsPerRecipient(kv: Deno.Kv, kind: RegExp): Promise<Map<string, number>> {
  const got = new Map<string, number>();
  for (const mail of await listOutbox(kv)) {
    if (kind.test(mail.subject)) got.set(mail.to, (got.get(mail.to) ?? 0) + 1);
  }
  return got;
}

for (const mode of ["cancel", "complete"] as const) {
  Deno.test(`[notices] kill -9 at ${RUNS} random points of a ${mode}: after a restart each entrant has exactly one mail`, async () => {
    const dir = await Deno.makeTempDir({ prefix: `notices-${mode}-` });
    try {
      const template = `${dir}/template.kv`;
      const cid = await smallContest(template);
      // Runs without a kill give the job's length, over which the kills are spread: the shorter
      // of two, as the first pays for a cold start the later runs do not.
      const lengths: number[] = [];
      for (const name of ["calibrate", "calibrate2"]) {
        await copyStore(template, `${dir}/${name}.kv`);
        lengths.push(await runWorker([mode, `${dir}/${name}.kv`, String(cid)]) ?? 0);
      }
      const length = Math.min(...lengths);
      let killedMidway = 0;
      for (let run = 0; run < RUNS; run++) {
        const path = `${dir}/run${run}.kv`;
        await copyStore(template, path);
        const at = Math.floor(Math.random() * length);
        if (await runWorker([mode, path, String(cid)], at) === null) killedMidway++;
        await runWorker([mode, path, String(cid)]);
        const kv = await Deno.openKv(path);
        try {
          if (mode === "cancel") {
            const told = await mailsPerRecipient(kv, /was cancelled/);
            assert.equal(told.size, SMALL, `run ${run} (kill at ${at} ms): everyone told`);
            for (const [to, n] of told) assert.equal(n, 1, `run ${run}: ${to} told ${n} times`);
          } else {
            const payouts = await listPayouts(kv, cid);
            assert.equal(payouts.length, SMALL, "the tie shares the five prizes among all");
            const told = await mailsPerRecipient(kv, /^You won /);
            assert.equal(told.size, SMALL, `run ${run} (kill at ${at} ms): every winner told`);
            for (const [to, n] of told) assert.equal(n, 1, `run ${run}: ${to} told ${n} times`);
            for (const p of payouts) assert.ok(p.notifiedAt && p.tokenHash, p.teamId);
          }
        } finally {
          kv.close();
        }
      }
      assert.ok(killedMidway >= RUNS / 2, `${killedMidway} of ${RUNS} kills hit a running job`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
