/**
 * How the payment sweep is scheduled: on Deno Deploy one `Deno.cron` (Deploy runs each schedule
 * once across all isolates) whose runs wait for the start-up work; elsewhere a lease.
 */
import assert from "node:assert/strict";
import { getEntryByPayment } from "@/lib/db/entries.ts";
import { keys } from "@/lib/db/keys.ts";
import { schedulePaymentSweeps, SWEEP_CRON, SWEEP_GRACE_MS } from "@/lib/payments/sweep.ts";
import { TEST_ORIGIN, withTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, SUCCESS_CARD, validPicks } from "@/tests/helpers/fixtures.ts";

type CronHandler = () => Promise<void> | void;

Deno.test("[sweep] on Deploy the sweep is one Deno.cron, run once the start-up work is done", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const intent = await app.request("/api/create-payment-intent", {
      method: "POST",
      json: {
        competitionId: c.id,
        email: "cron@example.com",
        teamName: "Cron Club",
        playerIds: validPicks(c),
      },
    });
    const { paymentIntentId } = await intent.json();
    const confirm = await app.request("/api/test-payments/confirm", {
      method: "POST",
      json: { paymentIntentId, cardNumber: SUCCESS_CARD },
    });
    await confirm.body?.cancel();
    // The browser never came back, longer ago than the sweep's grace.
    const checkout = await app.kv.get<{ createdAt: string }>(keys.checkout(paymentIntentId));
    const createdAt = new Date(Date.now() - SWEEP_GRACE_MS - 1000).toISOString();
    await app.kv.set(checkout.key, { ...checkout.value!, createdAt });

    const registered: { name: string; schedule: string; handler: CronHandler }[] = [];
    const realCron = Deno.cron;
    Object.defineProperty(Deno, "cron", {
      configurable: true,
      writable: true,
      value: (name: string, schedule: string, handler: CronHandler) => {
        registered.push({ name, schedule, handler });
        return Promise.resolve();
      },
    });
    let startUpDone!: () => void;
    const ready = new Promise<void>((resolve) => startUpDone = resolve);
    try {
      const sweeper = schedulePaymentSweeps(app.services, TEST_ORIGIN, { cron: true, ready });
      assert.deepEqual(registered.map((r) => [r.name, r.schedule]), [[
        "payment sweep",
        SWEEP_CRON,
      ]]);
      const run = registered[0].handler();
      startUpDone();
      await run;
      assert.equal((await getEntryByPayment(app.kv, paymentIntentId))?.teamName, "Cron Club");
      await sweeper.stop();
    } finally {
      Object.defineProperty(Deno, "cron", { configurable: true, writable: true, value: realCron });
    }
  });
});
