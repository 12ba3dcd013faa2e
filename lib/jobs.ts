/**
 * The app's periodic work, in one table: JOBS. Each job has a name (its line in Deno Deploy's
 * Cron tab, its lease), a schedule (a 5-field cron expression, UTC) and what it does. Every run
 * is idempotent (it may run twice, or be cut short and run again) and bounded in time.
 *
 * Two ways run the same table:
 * - On Deno Deploy, `Deno.cron`: Deploy finds the jobs a revision registers while its entry
 *   module's top level runs, before `Deno.serve`, so `main.ts` calls `registerCronJobs()` first
 *   thing; each run waits for this isolate's start-up work (migrations) before it begins.
 * - Elsewhere (`npm start`, `deno task preview`, benches), `startJobRunner`: every 10 s each job
 *   runs where its KV lease is held, one process at a time.
 * A run of either kind takes the job's lease, so no two runs of a job overlap on one store.
 *
 * To add a job, add one line to JOBS.
 */
import { keepLease, releaseLease, takeLease } from "@/lib/store/leases.ts";
import { recordSweep } from "@/lib/telemetry.ts";
import type { CheckoutDeps } from "@/lib/payments/checkout.ts";
import { resumeCancellations } from "@/lib/payments/cancellation.ts";
import { cancelUnderfilled } from "@/lib/payments/min_entries.ts";
import { notifyWinners, type PayoutDeps, remindUnclaimed } from "@/lib/payments/payouts.ts";
import { deliverOutbox } from "@/lib/db/outbox.ts";
import { type NotifyDeps, runNotifications } from "@/lib/notify/run.ts";
import type { VapidConfig } from "@/lib/config.ts";
import { resumeAwards } from "@/lib/db/standings.ts";
import { advanceCompetitionStatuses } from "@/lib/db/status_clock.ts";
import { freezeDuePools } from "@/lib/db/contest_formats.ts";
import { expireLoneIntents, settleCheckouts, type SweepReport } from "@/lib/payments/sweep.ts";

/** What the jobs need from the app: its Services satisfy it. */
export interface JobDeps extends CheckoutDeps, PayoutDeps, NotifyDeps {
  /** What the payout and notification jobs read of the app's configuration. */
  config?: { payoutKey?: string | null; vapid?: VapidConfig | null };
  /** The jobs running in this isolate (`Services.runningJobs`): a job never overlaps itself here. */
  runningJobs: Set<string>;
}

/** What one run of a job gets. */
export interface JobRun {
  deps: JobDeps;
  /** The links' origin in the e-mails it sends. */
  origin: string;
  now: Date;
  /** Where the payment jobs count what they did (the others leave it). */
  report: SweepReport;
}

/** One periodic job. */
export interface Job {
  /** Its name in Deploy's Cron tab, traces and logs (≤ 256 characters), and its lease. */
  name: string;
  /** When Deploy runs it: a 5-field cron expression in UTC (a minute is the shortest). */
  schedule: string;
  /** One idempotent run; an error is retried (Deploy: `backoffSchedule`; elsewhere next tick). */
  run(run: JobRun): Promise<unknown>;
}

const EVERY_MINUTE = "* * * * *";

/** Every periodic job, in the order one pass runs them. */
export const JOBS: readonly Job[] = [
  {
    name: "payment sweep",
    schedule: EVERY_MINUTE,
    run: (r) => settleCheckouts(r.deps, r.origin, r.now, r.report),
  },
  {
    name: "intent expiry",
    schedule: EVERY_MINUTE,
    run: (r) => expireLoneIntents(r.deps, r.now, r.report),
  },
  {
    name: "minimum entries",
    schedule: EVERY_MINUTE,
    // At the deadline a contest below its minimum is cancelled; then the pools of the template
    // contests that run are frozen (one job: Deno Deploy runs at most 10).
    run: async (r) => {
      await cancelUnderfilled(r.deps, r.origin, r.now);
      await freezeDuePools(r.deps.kv, r.now);
    },
  },
  {
    name: "competition status",
    schedule: EVERY_MINUTE,
    run: (r) => advanceCompetitionStatuses(r.deps.kv, r.now),
  },
  {
    name: "award resumption",
    schedule: EVERY_MINUTE,
    run: (r) => resumeAwards(r.deps.kv),
  },
  {
    name: "winner notices",
    schedule: EVERY_MINUTE,
    run: (r) => notifyWinners(r.deps, r.origin, undefined, r.now),
  },
  {
    name: "prize reminders",
    schedule: EVERY_MINUTE,
    run: (r) => remindUnclaimed(r.deps, r.origin, r.now),
  },
  {
    name: "cancellations",
    schedule: EVERY_MINUTE,
    run: (r) => resumeCancellations(r.deps, `job-${crypto.randomUUID()}`),
  },
  {
    name: "outbox delivery",
    schedule: EVERY_MINUTE,
    run: (r) => deliverOutbox(r.deps.kv, r.deps.mailer),
  },
  {
    name: "notifications",
    schedule: EVERY_MINUTE,
    run: (r) => runNotifications(r.deps, r.origin, r.now),
  },
];

/** Deploy's retries of a failed run (at most 5, each ≤ 1 hour): 10 s, 1 min, 5 min. */
export const JOB_BACKOFF_MS = [10_000, 60_000, 300_000];
/** A run still going after this is reported failed (it may go on; no second run starts). */
export const JOB_TIME_LIMIT_MS = 50_000;
/**
 * A job's lease, renewed every third of it while a run goes on (however long), so a dead holder's
 * lapses within 20 s and a restarted process picks up its work soon after.
 */
const JOB_LEASE_MS = 20_000;
const DEFAULT_INTERVAL_MS = 10_000;

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function emptyReport(): SweepReport {
  return { finalised: 0, refunded: 0, expired: 0, failed: 0 };
}

/** The lease of `job` (one run at a time per store). */
function leaseOf(job: Job): string {
  return `job:${job.name}`;
}

/** Runs `job` once; an error is logged and counted in `report.failed`. */
async function runCounted(job: Job, run: JobRun): Promise<void> {
  try {
    await job.run(run);
  } catch (err) {
    run.report.failed++;
    console.error(`Job "${job.name}" failed: ${reason(err)}`);
  }
}

/**
 * One pass of every job in JOBS, in order, without leases (tests, `deno task reconcile
 * --sweep`): paid checkouts become entries or refunds, unpaid intents expire, under-filled
 * competitions are cancelled, winners are told, cancellations resume.
 */
export async function sweepPayments(
  deps: JobDeps,
  origin: string,
  now = new Date(),
): Promise<SweepReport> {
  const report = emptyReport();
  for (const job of JOBS) await runCounted(job, { deps, origin, now, report });
  return report;
}

/** Logs what a run did when it did something, and reports it to telemetry. */
function logReport(report: SweepReport): void {
  recordSweep({ ...report });
  if (report.finalised + report.refunded + report.expired + report.failed > 0) {
    console.log(
      `Payment sweep: ${report.finalised} entries made, ${report.refunded} refunded, ` +
        `${report.expired} unpaid expired, ${report.failed} to retry`,
    );
  }
}

/** `work`, or an error once it has run `ms` (the work itself goes on). */
function withinLimit(name: string, work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Job "${name}" still running after ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Runs `job` once, under `owner`'s lease on it (taken by the caller), unless a run of it is under
 * way in this isolate. The lease is renewed while the run goes on and, with `release`, given back
 * when it ends. The run reports failed (throws) after JOB_TIME_LIMIT_MS while it goes on, still
 * under the lease, and no second run starts until it ends.
 */
async function runLeased(
  job: Job,
  run: JobRun,
  owner: string,
  { leaseMs, release }: { leaseMs: number; release: boolean },
): Promise<void> {
  const names = run.deps.runningJobs;
  if (names.has(job.name)) {
    if (release) await releaseLease(run.deps.kv, leaseOf(job), owner).catch(() => {});
    return;
  }
  names.add(job.name);
  const lease = keepLease(run.deps.kv, leaseOf(job), owner, leaseMs);
  const work = runCounted(job, run).finally(() => names.delete(job.name));
  const ended = work.then(() => lease.stop(release));
  await withinLimit(job.name, work, JOB_TIME_LIMIT_MS);
  await ended;
}

/** What a cron run needs from the app: its services, the links' origin, the start-up work. */
export interface JobHost {
  deps: JobDeps;
  origin: string;
  /** Settles once this isolate's start-up work (migrations, …) is done; rejects if it failed. */
  ready: Promise<unknown>;
}

/** The cron jobs of an entry module, waiting for the app they run in. */
export interface CronJobs {
  /** How many jobs `Deno.cron` took (0 where it does not exist). */
  registered: number;
  /** Gives the runs their app; until then they wait. */
  attach(host: JobHost): void;
  /** Stops the runs (later ones do nothing) and waits for those under way. */
  detach(): Promise<void>;
}

/**
 * One cron run of `job`: waits for the app and its start-up work, takes the job's lease (a run
 * elsewhere holds it: nothing to do), runs it within JOB_TIME_LIMIT_MS, then gives the lease back
 * once the run has ended.
 * Throws when the run failed, so that Deploy shows the error and retries (`backoffSchedule`).
 */
async function cronRun(job: Job, host: Promise<JobHost>, stopped: () => boolean): Promise<void> {
  const { deps, origin, ready } = await host;
  await ready;
  if (stopped()) return;
  const owner = crypto.randomUUID();
  if (!await takeLease(deps.kv, leaseOf(job), owner, JOB_LEASE_MS)) return;
  const report = emptyReport();
  await runLeased(job, { deps, origin, now: new Date(), report }, owner, {
    leaseMs: JOB_LEASE_MS,
    release: true,
  });
  logReport(report);
  if (report.failed > 0) throw new Error(`Job "${job.name}": ${report.failed} steps to retry`);
}

/**
 * Registers every job of JOBS with `Deno.cron`, each with JOB_BACKOFF_MS. Call it at the top
 * level of the entry module, before anything is served and whatever the environment: Deno Deploy
 * runs only the jobs registered so. The runs wait until `attach` gives them the app.
 */
export function registerCronJobs(): CronJobs {
  const host = Promise.withResolvers<JobHost>();
  const runs = new Set<Promise<void>>();
  let stopped = false;
  let registered = 0;
  if (typeof Deno.cron === "function") {
    for (const job of JOBS) {
      Deno.cron(job.name, job.schedule, { backoffSchedule: JOB_BACKOFF_MS }, () => {
        const run = cronRun(job, host.promise, () => stopped);
        runs.add(run);
        return run.finally(() => runs.delete(run));
      });
      registered++;
    }
  }
  return {
    registered,
    attach: (app) => host.resolve(app),
    async detach() {
      stopped = true;
      await Promise.allSettled([...runs]);
    },
  };
}

/** A running lease runner; `stop` waits for a pass under way. */
export interface JobRunner {
  stop(): Promise<void>;
}

/**
 * Runs every job now and every `intervalMs`, each where this process holds (or takes over) the
 * job's lease: one process or isolate at a time per job; another takes over within
 * `max(JOB_LEASE_MS, 2 × intervalMs)` (20 s by default) when the holder dies. Used wherever
 * Deploy's `Deno.cron` does not run the jobs.
 */
export function startJobRunner(
  deps: JobDeps,
  origin: string,
  { intervalMs = DEFAULT_INTERVAL_MS } = {},
): JobRunner {
  const owner = crypto.randomUUID();
  const leaseMs = Math.max(JOB_LEASE_MS, intervalMs * 2);
  let pass: Promise<void> | null = null;
  let stopped = false;
  const runPass = async () => {
    const report = emptyReport();
    const now = new Date();
    for (const job of JOBS) {
      if (stopped) break;
      try {
        if (!await takeLease(deps.kv, leaseOf(job), owner, leaseMs)) continue;
        await runLeased(job, { deps, origin, now, report }, owner, { leaseMs, release: false });
      } catch (err) {
        if (!stopped) console.error(`Job "${job.name}" failed: ${reason(err)}`);
      }
    }
    logReport(report);
  };
  const tick = () => {
    if (stopped || pass) return;
    pass = runPass().finally(() => pass = null);
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  Deno.unrefTimer(timer);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await pass;
      await Promise.all(
        JOBS.map((job) => releaseLease(deps.kv, leaseOf(job), owner).catch(() => {})),
      );
    },
  };
}
