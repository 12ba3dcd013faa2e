/**
 * The automatic status of competitions that follow the clock (`autoStatus`): LIVE at their match's
 * kick-off, COMPLETED once its result was saved AUTO_COMPLETE_GRACE_MS ago (clockStatus); a
 * round contest from its first kick-off until every match has a result (roundClockStatus). A job
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
import { listCompetitionsUsingMatch, recordKickOff, updateMatch } from "./matches.ts";
import { getManyValues } from "@/lib/store/util.ts";
import { isRoundContest, roundClockStatus } from "@/lib/domain/rounds.ts";
import { competitionMatches } from "./rounds.ts";

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
    c.autoStatus === true && (c.matchId !== null || isRoundContest(c)) &&
    (c.status === "UPCOMING" || c.status === "LIVE")
  );
  const matches = new Map(
    (await getManyValues<Match>(
      kv,
      [...new Set(candidates.flatMap((c) => c.matchId === null ? [] : [c.matchId]))].map(
        keys.match,
      ),
    ))
      .map((m) => [m.id, m]),
  );
  const rounds = new Map<number, Match[]>();
  for (const c of candidates) {
    if (report.live + report.completed >= limit) break;
    let to: "LIVE" | "COMPLETED" | null;
    let why: string;
    if (isRoundContest(c)) {
      if (!rounds.has(c.roundId!)) rounds.set(c.roundId!, await competitionMatches(kv, c));
      to = roundClockStatus(c.status, rounds.get(c.roundId!)!, now);
      why = to === "LIVE"
        ? "The round's first match kicked off."
        : "Every match of the round has its result.";
    } else {
      const match = matches.get(c.matchId!);
      to = match ? clockStatus(c.status, match, now) : null;
      why = to === "LIVE" ? "The match kicked off." : "The match result was saved.";
    }
    if (!to) continue;
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
  // Round contests holding the match are among its users (listCompetitionsUsingMatch).
  return advance(kv, await listCompetitionsUsingMatch(kv, matchId), now, STATUS_BATCH);
}

/** What a kick-off did: competitions moved LIVE, and those whose entries it closed early. */
export interface KickOffReport extends StatusClockReport {
  closed: number;
}

const KICKED_OFF = "The match kicked off.";

/**
 * The step to run when match `matchId` really kicks off at `at` (a data feed's kick-off, maybe
 * before the scheduled time): the match records it (see recordKickOff), and every UPCOMING
 * competition on the match stops taking entries at once, its deadline brought forward to `at`,
 * and goes LIVE. Automatic or not: a manual status holds against the schedule, not against the
 * match being played. One below its minimum entries stays UPCOMING, closed, for the
 * minimum-entries job to cancel (as when the clock reaches its deadline). Each competition moves
 * in one atomic on its record, which every entry's commit checks (as for the status clock's
 * move): an entry commits before the kick-off is recorded or is refused, never after. Idempotent.
 * @example await kickOffMatch(kv, match.id, new Date()); // { live: 2, completed: 0, closed: 2 }
 */
export async function kickOffMatch(
  kv: Deno.Kv,
  matchId: number,
  at = new Date(),
): Promise<KickOffReport> {
  await recordKickOff(kv, matchId, at);
  const report: KickOffReport = { live: 0, completed: 0, closed: 0 };
  for (const c of await listCompetitionsUsingMatch(kv, matchId)) {
    if (c.status !== "UPCOMING") continue;
    const early = Date.parse(c.deadline) > at.getTime();
    const live = !c.minEntries || c.currentEntries >= c.minEntries;
    if (!early && !live) continue;
    const patch = {
      ...(early ? { deadline: at.toISOString() } : {}),
      ...(live ? { status: "LIVE" as const } : {}),
    };
    const moved = await updateCompetition(kv, c.id, patch, {
      expectStatus: "UPCOMING",
      reason: KICKED_OFF,
      now: at,
    }).then(() => true, (err) => {
      if (err instanceof ConflictError && err.message === STATUS_MOVED) return false;
      throw err;
    });
    if (!moved) continue; // an admin moved it first
    if (live) report.live++;
    if (early) report.closed++;
    await appendAudit(kv, {
      admin: "system",
      action: live ? "Automatic status" : "Entries closed",
      request: "match kick-off",
      competitionId: c.id,
      before: { status: c.status, deadline: c.deadline },
      after: { status: patch.status ?? c.status, deadline: patch.deadline ?? c.deadline },
      reason: KICKED_OFF,
      at,
    });
  }
  return report;
}

/**
 * The step to run when match `matchId` ends with `score` (a data feed's full time): the result is
 * saved as the admin's match form saves it, and the automatic competitions on the match follow
 * (COMPLETED once the grace period has passed, see advanceMatchCompetitions).
 * @example await endMatch(kv, match.id, { homeScore: 2, awayScore: 1 });
 */
export async function endMatch(
  kv: Deno.Kv,
  matchId: number,
  score: { homeScore: number; awayScore: number },
  now = new Date(),
): Promise<StatusClockReport> {
  await updateMatch(kv, matchId, score, now);
  return advanceMatchCompetitions(kv, matchId, now);
}
