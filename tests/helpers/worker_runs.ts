/**
 * Runs tests/helpers/money_job_worker.ts as a process of its own, for the kill -9 tests: with
 * `killAfterMs`, SIGKILL that long after it opened the store; and copies a store (with its WAL)
 * so each run starts from the same data; `paidFan` makes the paid entries they work on.
 */
import assert from "node:assert/strict";
import { createEntry } from "@/lib/db/entries.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { type TestCompetition, validPicks } from "@/tests/helpers/fixtures.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

const WORKER = new URL("./money_job_worker.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/**
 * Runs the worker with `args` (mode, store path, …); with `killAfterMs`, kill -9 that long after
 * it opened the store. Resolves to the ms from "ready" to "done" (null when killed first).
 */
export async function runWorker(args: string[], killAfterMs?: number): Promise<number | null> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, WORKER, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let readyAt = 0;
  let doneAt = 0;
  const reading = (async () => {
    for (;;) {
      const { value, done } = await lines.read();
      if (done) return;
      seen += value;
      if (!readyAt && seen.includes("ready")) readyAt = performance.now();
      if (!doneAt && seen.includes("done")) doneAt = performance.now();
    }
  })();
  if (killAfterMs !== undefined) {
    await waitFor("the worker opened the store", () => readyAt > 0, { everyMs: 2 });
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    try {
      child.kill("SIGKILL");
    } catch { /* it finished first */ }
  }
  const status = await child.status;
  await reading;
  if (killAfterMs === undefined) assert.equal(status.code, 0, `${args[0]} worker failed`);
  return doneAt && status.success ? doneAt - readyAt : null;
}

/** Copies a store file and its WAL, so a run starts from the same data. */
export async function copyStore(from: string, to: string): Promise<void> {
  await Deno.copyFile(from, to);
  for (const suffix of ["-wal", "-shm"]) {
    await Deno.copyFile(from + suffix, to + suffix).catch(() => {});
  }
}

/** Entry `n` (fan<n>@example.com) of the competition, paid $5.00 with the test provider. */
export async function paidFan(kv: Deno.Kv, c: TestCompetition, n: number): Promise<string> {
  const provider = new TestPaymentProvider(kv);
  const intent = await provider.createIntent({
    amount: 500,
    currency: "usd",
    metadata: { competitionId: String(c.id) },
  });
  await provider.confirm(intent.id, "4242 4242 4242 4242");
  const { entry } = await createEntry(kv, {
    competitionId: c.id,
    email: `fan${n}@example.com`,
    teamName: `Fan ${n}`,
    playerIds: validPicks(c),
    stripePaymentId: intent.id,
    charge: { amount: 500, currency: "usd" },
  });
  return entry.teamId;
}
