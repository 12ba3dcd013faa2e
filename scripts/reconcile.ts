/**
 * `deno task reconcile`: prints how many payments of the store at DENO_KV_PATH ended as an entry,
 * were refunded, are pending (paid but not settled: the running app's sweep finishes them within
 * a minute) or unpaid — the counts of the admin Payments screen. `--sweep` first finishes the
 * pending ones itself (the same sweep the app runs). Exits 1 while payments are pending.
 */
import { ConfigError, linkOrigin, loadConfig } from "@/lib/config.ts";
import { retryWhileBusy, withBusyRetry } from "@/lib/db/busy_retry.ts";
import { createMailer } from "@/lib/email/mod.ts";
import { listPayments, PAYMENT_STATES } from "@/lib/payments/ledger.ts";
import { createPaymentProvider } from "@/lib/payments/mod.ts";
import { sweepPayments } from "@/lib/payments/sweep.ts";

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Configuration error: ${err.message}`);
  Deno.exit(1);
}
const kv = withBusyRetry(
  await retryWhileBusy(() => Deno.openKv(config.kvPath === "" ? undefined : config.kvPath)),
);
try {
  const deps = {
    kv,
    payments: createPaymentProvider(config, kv),
    mailer: createMailer(config, kv),
  };
  if (Deno.args.includes("--sweep")) {
    const origin = linkOrigin(config, new URL(`http://localhost:${config.port}`));
    const report = await sweepPayments(deps, origin);
    console.log(
      `sweep: ${report.finalised} entries made, ${report.refunded} refunded, ` +
        `${report.expired} unpaid expired, ${report.failed} failed`,
    );
  }
  const { counts } = await listPayments(deps, null, { limit: 0 });
  for (const state of PAYMENT_STATES) console.log(`${state.padEnd(9)} ${counts[state]}`);
  if (counts.pending > 0) Deno.exitCode = 1;
} finally {
  kv.close();
}
