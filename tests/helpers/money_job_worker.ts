/**
 * A process that runs one money job on a store, for the kill -9 tests: `cancel` cancels the
 * competition and refunds and tells every entrant (the job a restart resumes), `complete`
 * completes it, records its awards and tells the winners (what the sweep finishes after a crash).
 * `refund` refunds one entry as the admin route does (a repeat after it was decided is refused,
 * as the route refuses it), then runs the payment sweep (what finishes it after a crash).
 * Prints "ready" once the store is open and "done" at the end.
 * Usage: deno run -A tests/helpers/money_job_worker.ts cancel|complete <store path> <cid>
 *        deno run -A tests/helpers/money_job_worker.ts refund <store path> <cid> <team id>
 */
import { updateCompetition } from "@/lib/db/competitions.ts";
import { keys } from "@/lib/store/keys.ts";
import { resumeAwards } from "@/lib/db/standings.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { OutboxMailer } from "@/lib/email/outbox_mailer.ts";
import { ConflictError } from "@/lib/domain/errors.ts";
import { sweepPayments } from "@/lib/jobs.ts";
import { createNotifyState } from "@/lib/notify/state.ts";
import { runCancellation, startCancellation } from "@/lib/payments/cancellation.ts";
import { refundOneEntry } from "@/lib/payments/entry_refund.ts";
import { notifyWinners } from "@/lib/payments/payouts.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";

const [mode, path, cidText] = Deno.args;
const cid = Number(cidText);
const ORIGIN = "https://fantasy.example.com";
const kv = await Deno.openKv(path);
const deps = {
  kv,
  payments: new TestPaymentProvider(kv),
  mailer: new OutboxMailer(kv),
  payoutSealKey: { key: null },
  runningJobs: new Set<string>(),
  notify: createNotifyState(),
};
console.log("ready");
if (mode === "refund") {
  await refundOneEntry(deps, cid, Deno.args[3], "Paid twice", ORIGIN, { admin: "admin" })
    .catch((err) => {
      if (!(err instanceof ConflictError)) throw err;
    });
  await sweepPayments(deps, ORIGIN);
} else if (mode === "cancel") {
  await startCancellation(deps, cid, "The match was postponed.", ORIGIN);
  // One holder name across restarts: the restarted process takes over its own lease at once.
  await runCancellation(deps, cid, "crash-test-worker");
} else {
  const competition = (await kv.get<Competition>(keys.competition(cid))).value!;
  if (competition.status !== "COMPLETED") await updateCompetition(kv, cid, { status: "COMPLETED" });
  await resumeAwards(kv);
  await notifyWinners(deps, ORIGIN, cid);
}
console.log("done");
kv.close();
