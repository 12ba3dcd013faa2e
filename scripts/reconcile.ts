/**
 * `deno task reconcile`: prints the ledger of the store at DENO_KV_PATH (per competition and per
 * currency: collected, refunded, entries kept, prizes owed and paid, what the operator keeps),
 * the payments per state, and every record that does not agree with the books. Exits 1 when
 * anything is off or a payment is still pending (the running app's sweep finishes pending ones
 * within a minute; `--sweep` finishes them here first). `--provider` also compares every payment
 * and refund with the provider's own records (Stripe's PaymentIntents and Refunds, or the test
 * provider's store) and names each that differs.
 */
import { ConfigError, linkOrigin, loadConfig } from "@/lib/config.ts";
import { retryWhileBusy, withBusyRetry } from "@/lib/store/busy_retry.ts";
import { createMailer } from "@/lib/email/mod.ts";
import {
  LEDGER_COLUMNS,
  type LedgerLine,
  PAYMENT_STATES,
  queryPayments,
  readPaymentBook,
} from "@/lib/payments/ledger.ts";
import { createPaymentProvider } from "@/lib/payments/mod.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import { createNotifyState } from "@/lib/notify/state.ts";

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Configuration error: ${err.message}`);
  Deno.exit(1);
}

const cents = (n: number | null) => n === null ? "—" : (n / 100).toFixed(2);
const COLUMNS: [string, (l: LedgerLine) => string][] = [
  ["competition", (l) => l.competitionId === null ? l.name : `${l.competitionId} ${l.name}`],
  ["cur", (l) => l.currency.toUpperCase()],
  ...LEDGER_COLUMNS.map(({ key, label }): [string, (l: LedgerLine) => string] => [
    label.toLowerCase(),
    (l) => cents(l[key]),
  ]),
];

/** What each column means, printed under the table. */
const LEGEND = LEDGER_COLUMNS.map(({ label, meaning }) => `  ${label.toLowerCase()}: ${meaning}`)
  .join("\n");

function table(lines: LedgerLine[]): string {
  const cells = [COLUMNS.map(([head]) => head), ...lines.map((l) => COLUMNS.map(([, f]) => f(l)))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const name = (text: string, i: number) =>
    i === 0 ? text.slice(0, 28).padEnd(Math.min(widths[0], 28)) : text.padStart(widths[i]);
  return cells.map((row) => row.map(name).join("  ")).join("\n");
}

const kv = withBusyRetry(
  await retryWhileBusy(() => Deno.openKv(config.kvPath === "" ? undefined : config.kvPath)),
);
try {
  const deps = {
    kv,
    payments: createPaymentProvider(config, kv),
    mailer: createMailer(config, kv),
    // This process's own job state (an app keeps it in its Services).
    payoutSealKey: { key: null },
    runningJobs: new Set<string>(),
    notify: createNotifyState(),
  };
  if (Deno.args.includes("--sweep")) {
    const origin = linkOrigin(config);
    const report = await sweepPayments(deps, origin);
    console.log(
      `sweep: ${report.finalised} entries made, ${report.refunded} refunded, ` +
        `${report.expired} unpaid expired, ${report.failed} failed`,
    );
  }
  const provider = Deno.args.includes("--provider");
  const result = await reconcile(deps, [], { provider });
  console.log(table([...result.ledger.competitions, ...result.ledger.totals]));
  console.log(`\nAmounts in each line's currency (cur).\n${LEGEND}`);
  const { counts } = queryPayments(await readPaymentBook(deps), {
    status: null,
    competitionId: null,
    search: "",
    sort: "createdAt",
    descending: true,
    offset: 0,
    limit: 0,
  });
  console.log("\npayments: " + PAYMENT_STATES.map((s) => `${s} ${counts[s]}`).join(", "));
  if (result.discrepancies.length === 0) {
    console.log("books balance: collected = refunded + fees kept (+ in progress), to the cent");
    if (provider) console.log(`${deps.payments.mode} agrees with every payment and refund`);
  } else {
    console.log(`\n${result.discrepancies.length} records do not agree:`);
    for (const d of result.discrepancies) console.log(`  ${d.record}: ${d.problem}`);
  }
  if (result.pending > 0) console.log(`${result.pending} payments still pending`);
  if (result.discrepancies.length > 0 || result.pending > 0) Deno.exitCode = 1;
} finally {
  kv.close();
}
