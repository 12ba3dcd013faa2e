/**
 * The automatic status of competitions that follow the clock (`autoStatus`): LIVE at their match's
 * kick-off, COMPLETED once its result was saved AUTO_COMPLETE_GRACE_MS ago (clockStatus). A job
 * step, run by the payment sweep (every few seconds under its lease, or Deno.cron on Deploy) and
 * whenever a match's result is saved. Idempotent: each move is conditional on the status read, so
 * two runs at once, or a run repeated, move a competition once; each is logged as "system".
 */
import { clockStatus } from "@/lib/domain/competition.ts";
import type { Competition, Match } from "@/lib/domain/types.ts";
import { appendAudit } from "./audit.ts";
import { listCompetitions, STATUS_MOVED, updateCompetition } from "./competitions.ts";
import { ConflictError } from "@/lib/domain/errors.ts";
import { keys } from "@/lib/store/keys.ts";
import { listCompetitionsUsingMatch } from "./matches.ts";
import { getManyValues } from "@/lib/store/util.ts";

/** Most competitions one run moves (the rest move on the next run). */
export const STATUS_BATCH = 50;

/** What one run did. */
export interface StatusClockReport {
  live: number;
  completed: number;
}

async function advance(
  kv: Deno.Kv,
  competitions: Competition[],
  now: Date,
  limit: number,
): Promise<StatusClockReport> {
  const report: StatusClockReport = { live: 0, completed: 0 };
  const candidates = competitions.filter((c) =>
    c.autoStatus === true && c.matchId !== null &&
    (c.status === "UPCOMING" || c.status === "LIVE")
  );
  const matches = new Map(
    (await getManyValues<Match>(
      kv,
      [...new Set(candidates.map((c) => c.matchId!))].map(keys.match),
    ))
      .map((m) => [m.id, m]),
  );
  for (const c of candidates) {
    if (report.live + report.completed >= limit) break;
    const match = matches.get(c.matchId!);
    const to = match ? clockStatus(c.status, match, now) : null;
    if (!to) continue;
    const why = to === "LIVE" ? "The match kicked off." : "The match result was saved.";
    const moved = await updateCompetition(kv, c.id, { status: to }, {
      expectStatus: c.status,
      reason: why,
      now,
    }).then(() => true, (err) => {
      if (err instanceof ConflictError && err.message === STATUS_MOVED) return false;
      throw err;
    });
    if (!moved) continue; // another run or an admin moved it first
    report[to === "LIVE" ? "live" : "completed"]++;
    await appendAudit(kv, {
      admin: "system",
      action: "Automatic status",
      request: "status clock",
      competitionId: c.id,
      before: { status: c.status },
      after: { status: to },
      reason: why,
      at: now,
    });
  }
  return report;
}

/**
 * The job: moves every automatic competition whose clock says so (at most `limit` per run).
 * @example await advanceCompetitionStatuses(kv); // { live: 1, completed: 0 }
 */
export async function advanceCompetitionStatuses(
  kv: Deno.Kv,
  now = new Date(),
  limit = STATUS_BATCH,
): Promise<StatusClockReport> {
  return advance(kv, await listCompetitions(kv), now, limit);
}

/**
 * The step to run when a match's result (or kick-off) was saved, by the admin screen or a data
 * feed: the automatic competitions on that match move at once when their clock says so (with
 * the grace period, completion usually comes from a later run of the job).
 * @example await advanceMatchCompetitions(kv, match.id);
 */
export async function advanceMatchCompetitions(
  kv: Deno.Kv,
  matchId: number,
  now = new Date(),
): Promise<StatusClockReport> {
  return advance(kv, await listCompetitionsUsingMatch(kv, matchId), now, STATUS_BATCH);
}
