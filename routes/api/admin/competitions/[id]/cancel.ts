import type { Handlers } from "$fresh/server.ts";
import { adminCompetitionRow } from "@/lib/api/views.ts";
import { linkOrigin } from "@/lib/config.ts";
import { cancelCompetitionSchema } from "@/lib/domain/schemas/competitions.ts";
import { auditStampOf } from "@/lib/http/admin_audit.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import {
  type CancellationJob,
  cancellationProgress,
  runCancellation,
  startCancellation,
} from "@/lib/payments/cancellation.ts";
import type { State } from "@/lib/services.ts";

/** How long the request waits for a small cancellation to finish before answering 202. */
const WAIT_MS = 2_000;

function messageOf(job: CancellationJob): string {
  if (job.finishedAt === null && job.processed < job.total) {
    return `Competition cancelled: refunding ${job.total} entries in the background ` +
      `(${job.processed} done so far).`;
  }
  if (job.finishedAt !== null) {
    return `Competition cancelled: ${job.refunded} of ${job.total} entries refunded.`;
  }
  return `Competition cancelled, but ${job.pending} refunds and ${job.unnotified} ` +
    "e-mails did not go through yet. They are retried automatically. Cancel again to retry them now.";
}

export const handler: Handlers<unknown, State> = {
  /**
   * {reason} → cancels the competition at once and refunds and e-mails every entrant in a
   * background job: 200 with the outcome when it ends within a moment, else 202 with its
   * progress (GET …/cancellation follows it). Safe to repeat: a retry finishes refunds or e-mails
   * that failed and repeats nothing.
   */
  async POST(req, ctx) {
    const id = parseId(ctx.params.id);
    const { reason } = await readJson(req, cancelCompetitionSchema);
    const deps = ctx.state.services;
    const origin = linkOrigin(deps.config);
    const started = await startCancellation(
      deps,
      id,
      reason,
      origin,
      undefined,
      auditStampOf(ctx.state),
    );
    const run = runCancellation(deps, id, `request-${crypto.randomUUID()}`).catch((err) => {
      console.error(`Cancellation of competition ${id} stopped: ${err}`);
      return null;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      run,
      new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), WAIT_MS)),
    ]);
    clearTimeout(timer);
    const job = waited ?? started.job;
    const running = job.finishedAt === null && job.processed < job.total;
    const { processed, total, refunded, pending, notified, unnotified } = job;
    return json({
      message: messageOf(job),
      competition: {
        ...adminCompetitionRow(started.competition),
        cancellation: cancellationProgress(job),
      },
      job,
      entries: total,
      processed,
      refunded,
      pending,
      notified,
      unnotified,
    }, { status: running ? 202 : 200 });
  },
};
