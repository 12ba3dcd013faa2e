/**
 * How the periodic jobs run (lib/jobs.ts): a `Deno.cron` run (Deploy) waits for the start-up
 * work and fails loudly when it failed, never overlaps another run of the same job on one store,
 * and the lease runner (elsewhere) runs the same table.
 */
import assert from "node:assert/strict";
import { getEntryByPayment } from "@/lib/db/entries.ts";
import { keys } from "@/lib/store/keys.ts";
import { JOB_BACKOFF_MS, JOBS, registerCronJobs, startJobRunner } from "@/lib/jobs.ts";
import { SWEEP_GRACE_MS } from "@/lib/payments/sweep.ts";
import { TEST_ORIGIN, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, SUCCESS_CARD, validPicks } from "@/tests/helpers/fixtures.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

type CronHandler = () => Promise<void>;

/** A paid checkout whose browser never came back, longer ago than the sweep's grace. */
async function abandonedPaidCheckout(app: TestApp, teamName: string): Promise<string> {
  const c = await makeCompetition(app.kv);
  const intent = await app.request("/api/create-payment-intent", {
    method: "POST",
    json: { competitionId: c.id, email: "cron@example.com", teamName, playerIds: validPicks(c) },
  });
  const { paymentIntentId } = await intent.json();
  const confirm = await app.request("/api/test-payments/confirm", {
    method: "POST",
    json: { paymentIntentId, cardNumber: SUCCESS_CARD },
  });
  await confirm.body?.cancel();
  const checkout = await app.kv.get<{ createdAt: string }>(keys.checkout(paymentIntentId));
  const createdAt = new Date(Date.now() - SWEEP_GRACE_MS - 1000).toISOString();
  await app.kv.set(checkout.key, { ...checkout.value!, createdAt });
  return paymentIntentId;
}

/** Runs `fn` with `Deno.cron` recording its registrations (name → handler). */
async function withRecordedCron(
  fn: (registered: Map<string, { schedule: string; handler: CronHandler }>) => Promise<void>,
) {
  const registered = new Map<string, { schedule: string; handler: CronHandler }>();
  const realCron = Deno.cron;
  const set = (value: unknown) =>
    Object.defineProperty(Deno, "cron", { configurable: true, writable: true, value });
  set((name: string, schedule: string, options: { backoffSchedule?: number[] }, h: CronHandler) => {
    assert.deepEqual(options.backoffSchedule, JOB_BACKOFF_MS);
    registered.set(name, { schedule, handler: h });
    return Promise.resolve();
  });
  try {
    await fn(registered);
  } finally {
    set(realCron);
  }
}

Deno.test("[jobs] a cron run waits for the start-up work, then does its job", async () => {
  await withTestApp(async (app) => {
    const paymentIntentId = await abandonedPaidCheckout(app, "Cron Club");
    await withRecordedCron(async (registered) => {
      const cron = registerCronJobs();
      assert.equal(cron.registered, JOBS.length);
      assert.deepEqual([...registered.keys()], JOBS.map((job) => job.name));
      const startUp = Promise.withResolvers<void>();
      cron.attach({ deps: app.services, origin: TEST_ORIGIN, ready: startUp.promise });
      const run = registered.get("payment sweep")!.handler();
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await getEntryByPayment(app.kv, paymentIntentId), null, "not before start-up");
      startUp.resolve();
      await run;
      assert.equal((await getEntryByPayment(app.kv, paymentIntentId))?.teamName, "Cron Club");
      await cron.detach();
    });
  });
});

Deno.test("[jobs] a cron run fails (for Deploy to retry) when the start-up work failed", async () => {
  await withTestApp(async (app) => {
    await withRecordedCron(async (registered) => {
      const cron = registerCronJobs();
      const ready = Promise.reject(new Error("migration failed"));
      ready.catch(() => {});
      cron.attach({ deps: app.services, origin: TEST_ORIGIN, ready });
      await assert.rejects(registered.get("winner notices")!.handler(), /migration failed/);
      await cron.detach();
    });
  });
});

Deno.test("[jobs] two runs of one job at once: one does the work, once", async () => {
  await withTestApp(async (app) => {
    const paymentIntentId = await abandonedPaidCheckout(app, "Once Club");
    await withRecordedCron(async (registered) => {
      const cron = registerCronJobs();
      cron.attach({ deps: app.services, origin: TEST_ORIGIN, ready: Promise.resolve() });
      const sweep = registered.get("payment sweep")!.handler;
      const logged: string[] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => void logged.push(args.join(" "));
      try {
        await Promise.all([sweep(), sweep(), sweep()]);
      } finally {
        console.log = log;
      }
      assert.deepEqual(logged, [
        "Payment sweep: 1 entries made, 0 refunded, 0 unpaid expired, 0 to retry",
      ]);
      assert.equal((await getEntryByPayment(app.kv, paymentIntentId))?.teamName, "Once Club");
      await cron.detach();
    });
  });
});

Deno.test("[jobs] elsewhere two lease runners share the same jobs, each run by one of them", async () => {
  await withTestApp(async (app) => {
    const paymentIntentId = await abandonedPaidCheckout(app, "Lease Club");
    const logged: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void logged.push(args.join(" "));
    const runners = [0, 1].map(() => startJobRunner(app.services, TEST_ORIGIN, { intervalMs: 50 }));
    try {
      // The jobs' leases (the push drainer may hold its own "push queue" lease at this moment).
      const jobLeases = async () =>
        (await Array.fromAsync(app.kv.list({ prefix: ["leases"] })))
          .map((l) => String(l.key.at(-1))).filter((name) => name.startsWith("job:")).sort();
      const everyJob = JOBS.map((job) => `job:${job.name}`).sort();
      await waitFor("the sweep made the entry", () => getEntryByPayment(app.kv, paymentIntentId));
      await waitFor(
        "every job's lease is held",
        async () => JSON.stringify(await jobLeases()) === JSON.stringify(everyJob),
      );
      await new Promise((resolve) => setTimeout(resolve, 200)); // a few more passes
      assert.equal((await getEntryByPayment(app.kv, paymentIntentId))?.teamName, "Lease Club");
      assert.deepEqual(await jobLeases(), everyJob);
    } finally {
      await Promise.all(runners.map((runner) => runner.stop()));
      console.log = log;
    }
    assert.deepEqual(logged, [
      "Payment sweep: 1 entries made, 0 refunded, 0 unpaid expired, 0 to retry",
    ]);
    assert.deepEqual(await Array.fromAsync(app.kv.list({ prefix: ["leases"] })), [], "released");
  });
});
