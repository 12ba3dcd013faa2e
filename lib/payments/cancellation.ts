/**
 * Cancelling a competition (e.g. its match was postponed): status CANCELLED at once, then a
 * background job refunds every paid entry through the payment provider exactly once and tells
 * every entrant by e-mail once. The job keeps its progress in KV after each chunk of entries and
 * holds a short lease while it runs: when its process dies, the periodic sweep resumes it from
 * where it stopped, and whatever it does again is idempotent (one refund record per payment,
 * claimed once; the provider is asked only while that claim is pending, with the payment as the
 * idempotency key; one notice claim per refund).
 */
import type { AuditStamp } from "@/lib/db/audit.ts";
import { markCompetitionCancelled } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { releaseLease, takeLease } from "@/lib/store/leases.ts";
import {
  claimEntryRefund,
  getRefunds,
  markRefundDone,
  recordRefundNotice,
  type Refund,
} from "@/lib/db/refunds.ts";
import { deliverOutbox, mailerDelivers } from "@/lib/db/outbox.ts";
import { getManyValues, listValues } from "@/lib/store/util.ts";
import { toCents } from "@/lib/domain/format.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import { buildCancellationNotice } from "@/lib/email/cancellation.ts";
import type { CheckoutDeps } from "./checkout.ts";

/** A cancellation's progress, as the dashboard shows it. */
export interface CancellationJob {
  competitionId: number;
  reason: string;
  /** Where the e-mails' links point. */
  origin: string;
  /** Entries to refund. */
  total: number;
  /** Entries handled so far in this pass (refund asked for, entrant told). */
  processed: number;
  /** The last entry id handled in this pass. */
  cursor: number;
  /** The tally of the last finished pass. */
  refunded: number;
  pending: number;
  notified: number;
  unnotified: number;
  startedAt: string;
  updatedAt: string;
  /** When the last pass over every entry ended (null before the first ends). */
  lastPassAt: string | null;
  /** Set once every refund went through and every entrant was told. */
  finishedAt: string | null;
}

/** What a cancellation achieved so far. */
export interface CancellationSummary {
  competition: Competition;
  job: CancellationJob;
}

/** Entries per chunk: progress is saved after each. */
const CHUNK = 100;
/** Entries of a chunk refunded at a time. */
const PARALLEL = 8;
/** Longer than a chunk takes; a dead holder's lease lapses after it. */
const LEASE_MS = 15_000;

const leaseName = (cid: number) => `cancel_${cid}`;

/** The refund reason of a cancelled competition's entries. */
function refundReason(competition: Competition): string {
  return `Competition cancelled: ${competition.cancelReason ?? "cancelled by the organiser"}`;
}

/** What the entry's payment charged: the entry's own record, else the competition's fee. */
export function chargedFor(
  entry: Entry,
  competition: Competition,
): { amount: number; currency: string } {
  return {
    amount: entry.amountPaid ?? toCents(competition.entryFee),
    currency: entry.currency ?? competition.currency.toLowerCase(),
  };
}

/** The job of a competition's cancellation, or null. */
export async function getCancellationJob(
  kv: Deno.Kv,
  cid: number,
): Promise<CancellationJob | null> {
  return (await kv.get<CancellationJob>(keys.cancelJob(cid))).value;
}

/** Every cancellation job. */
export function listCancellations(kv: Deno.Kv): Promise<CancellationJob[]> {
  return listValues<CancellationJob>(kv, keys.cancelJobs());
}

/** Every cancellation job not finished yet. */
export async function listUnfinishedCancellations(kv: Deno.Kv): Promise<CancellationJob[]> {
  return (await listCancellations(kv)).filter((job) => job.finishedAt === null);
}

/** What the dashboard shows of a job (null without one). */
export function cancellationProgress(job: CancellationJob | undefined | null) {
  if (!job) return null;
  const { processed, total, refunded, pending, finishedAt, lastPassAt } = job;
  return { processed, total, refunded, pending, finishedAt, lastPassAt };
}

/**
 * Cancels the competition at once and records its job (a finished job is opened again, so
 * cancelling again retries refunds or e-mails that failed). Run the job with `runCancellation`.
 * `audit`: the admin request's activity record, kept in the commit that cancels.
 */
export async function startCancellation(
  deps: CheckoutDeps,
  cid: number,
  reason: string,
  origin: string,
  now = new Date(),
  audit?: AuditStamp,
): Promise<CancellationSummary> {
  const competition = await markCompetitionCancelled(deps.kv, cid, reason, now, audit);
  const key = keys.cancelJob(cid);
  for (;;) {
    const current = await deps.kv.get<CancellationJob>(key);
    if (current.value && current.value.finishedAt === null) {
      return { competition, job: current.value };
    }
    const job: CancellationJob = {
      competitionId: cid,
      reason,
      origin,
      total: competition.currentEntries,
      processed: 0,
      cursor: 0,
      refunded: current.value?.refunded ?? 0,
      pending: current.value?.pending ?? 0,
      notified: current.value?.notified ?? 0,
      unnotified: current.value?.unnotified ?? 0,
      startedAt: current.value?.startedAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
      lastPassAt: current.value?.lastPassAt ?? null,
      finishedAt: null,
    };
    const res = await deps.kv.atomic().check(current).set(key, job).commit();
    if (res.ok) return { competition, job };
  }
}

/** The next entries of the competition after entry id `cursor`, in id order. */
async function nextEntries(kv: Deno.Kv, cid: number, cursor: number): Promise<Entry[]> {
  const ids: number[] = [];
  const iter = kv.list<number>({
    prefix: keys.entriesByCompetition(cid),
    start: keys.entryByCompetition(cid, cursor + 1),
  }, { limit: CHUNK });
  for await (const { value } of iter) ids.push(value);
  return await getManyValues<Entry>(kv, ids.map(keys.entry));
}

async function saveJob(kv: Deno.Kv, job: CancellationJob): Promise<void> {
  await kv.set(keys.cancelJob(job.competitionId), job);
}

/** Counts, over every entry, refunds done and pending and entrants told. */
async function tally(kv: Deno.Kv, cid: number, job: CancellationJob, now: Date) {
  const counts = { refunded: 0, pending: 0, notified: 0, unnotified: 0 };
  for (let cursor = 0;;) {
    const entries = await nextEntries(kv, cid, cursor);
    if (entries.length === 0) break;
    const refunds = await getRefunds(kv, entries.map((e) => e.stripePaymentId));
    for (const entry of entries) {
      const refund = refunds.get(entry.stripePaymentId);
      if (refund?.status === "DONE") counts.refunded++;
      else counts.pending++;
      if (refund?.notifiedAt) counts.notified++;
      else counts.unnotified++;
    }
    cursor = entries[entries.length - 1].id;
  }
  const done = counts.pending === 0 && counts.unnotified === 0;
  return {
    ...job,
    ...counts,
    total: counts.refunded + counts.pending,
    // A pass with failures starts over next time; what went through is skipped quickly.
    processed: done ? job.processed : 0,
    cursor: done ? job.cursor : 0,
    updatedAt: now.toISOString(),
    lastPassAt: now.toISOString(),
    finishedAt: done ? now.toISOString() : null,
  };
}

/**
 * Runs (or resumes) the cancellation job of competition `cid` while `holder` holds its lease:
 * each chunk of entries is refunded and told, then the progress is saved. Resolves to the job as
 * it stands, or null when another holder is running it.
 */
export async function runCancellation(
  deps: CheckoutDeps,
  cid: number,
  holder: string,
  now: () => Date = () => new Date(),
): Promise<CancellationJob | null> {
  const { kv } = deps;
  if (!await takeLease(kv, leaseName(cid), holder, LEASE_MS)) return null;
  try {
    let job = await getCancellationJob(kv, cid);
    if (!job || job.finishedAt !== null) return job;
    const competition = await markCompetitionCancelled(kv, cid, job.reason, now());
    for (;;) {
      const entries = await nextEntries(kv, cid, job.cursor);
      if (entries.length === 0) break;
      for (let i = 0; i < entries.length; i += PARALLEL) {
        await Promise.all(
          entries.slice(i, i + PARALLEL).map((e) => settleEntry(deps, competition, e, job!, now())),
        );
      }
      job = {
        ...job,
        processed: job.processed + entries.length,
        cursor: entries[entries.length - 1].id,
        updatedAt: now().toISOString(),
      };
      await saveJob(kv, job);
      await deliverOutbox(kv, deps.mailer).catch((err) =>
        console.error(`Cancellation e-mails wait in the outbox: ${err}`)
      );
      if (!await takeLease(kv, leaseName(cid), holder, LEASE_MS)) return job;
    }
    job = await tally(kv, cid, job, now());
    await saveJob(kv, job);
    return job;
  } finally {
    await releaseLease(kv, leaseName(cid), holder);
  }
}

/** Resumes every unfinished cancellation whose lease lapsed (the periodic sweep calls this). */
export async function resumeCancellations(deps: CheckoutDeps, holder: string): Promise<number> {
  let resumed = 0;
  for (const job of await listUnfinishedCancellations(deps.kv)) {
    if (await runCancellation(deps, job.competitionId, holder)) resumed++;
  }
  return resumed;
}

/** Refunds one entry (once) and, once its money went back, tells the entrant (once). */
async function settleEntry(
  deps: CheckoutDeps,
  competition: Competition,
  entry: Entry,
  job: CancellationJob,
  now: Date,
): Promise<void> {
  const refund = await refundEntry(deps, competition, entry, now);
  if (refund.status !== "DONE") return;
  await notifyEntrant(deps, competition, entry, refund, job.origin, now);
}

/**
 * Claims the entry's refund (once, whatever the number of runs) and has the provider carry it
 * out while it is pending. A provider failure leaves it pending for the next run.
 */
async function refundEntry(
  { kv, payments }: CheckoutDeps,
  competition: Competition,
  entry: Entry,
  now: Date,
): Promise<Refund> {
  const refund = await claimEntryRefund(kv, {
    paymentIntentId: entry.stripePaymentId,
    competitionId: competition.id,
    entryTeamId: entry.teamId,
    reason: refundReason(competition),
    ...chargedFor(entry, competition),
  }, now);
  return await carryOutEntryRefund({ kv, payments }, refund, now);
}

/**
 * Has the provider carry out an entry's decided refund (the payment is the idempotency key, so a
 * repeat refunds nothing more) and records it done; a provider failure leaves it pending for the
 * next run. Cancellations, single refunds and the payment sweep all finish entry refunds here.
 */
export async function carryOutEntryRefund(
  { kv, payments }: Pick<CheckoutDeps, "kv" | "payments">,
  refund: Refund,
  now: Date,
): Promise<Refund> {
  if (refund.status === "DONE") return refund;
  try {
    // A payment the provider does not know (demo data) has nothing to give back.
    const intent = await payments.retrieveIntent(refund.paymentIntentId);
    if (intent) await payments.refund(refund.paymentIntentId, refund.reason);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    console.error(
      `Refund of ${refund.paymentIntentId} (entry ${refund.entryTeamId}) failed: ${why}`,
    );
    return refund;
  }
  return await markRefundDone(kv, refund.paymentIntentId, now);
}

/**
 * Tells the entrant once: the notice is written to the outbox in the atomic that records them
 * told (delivery to SMTP retries from there).
 */
async function notifyEntrant(
  { kv, mailer }: CheckoutDeps,
  competition: Competition,
  entry: Entry,
  refund: Refund,
  origin: string,
  now: Date,
): Promise<void> {
  if (refund.notifiedAt) return;
  await recordRefundNotice(kv, refund.paymentIntentId, (r) =>
    buildCancellationNotice({
      entry,
      competition,
      reason: competition.cancelReason ?? "cancelled by the organiser",
      amount: r.amount / 100,
      origin,
    }), { deliver: mailerDelivers(mailer), now });
}

/**
 * Cancels the competition and runs its job here until it ends (tests, scripts); see the module
 * comment. The HTTP route starts the job and answers at once.
 * @example await cancelCompetition(deps, 7, "The match was postponed.", "https://example.com")
 */
export async function cancelCompetition(
  deps: CheckoutDeps,
  cid: number,
  reason: string,
  origin: string,
  now = new Date(),
): Promise<CancellationSummary> {
  const started = await startCancellation(deps, cid, reason, origin, now);
  const holder = `inline-${crypto.randomUUID()}`;
  const job = await runCancellation(deps, cid, holder) ?? started.job;
  return { competition: started.competition, job };
}
