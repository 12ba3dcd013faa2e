/**
 * The notifications' periodic work, one job ("notifications" in lib/jobs.ts): the pushes of
 * queued scoring events ("my picks scored"), the reminder e-mail 1 hour before each deadline, and
 * the result e-mail and "final standings" push once a competition's awards are recorded. Every
 * run is idempotent (what was sent is recorded with it) and bounded (a time budget and a cap of
 * messages; the rest waits for the next run). Scoring events are also pushed at once: the event's
 * write wakes this isolate's drainer (`startPushDrainer`). A push the push service refused for now
 * (429, 5xx) or that got no answer is kept and tried again (retry.ts), by the same runner.
 */
import { listCompetitions } from "@/lib/db/competitions.ts";
import { getEntry } from "@/lib/db/entries.ts";
import { keys } from "@/lib/store/keys.ts";
import { keepLease, takeLease } from "@/lib/store/leases.ts";
import {
  advancePushQueue,
  bouncedAt,
  finishPushQueue,
  listNotifyPrefs,
  listPushQueue,
  markNotifyDone,
  notifyDone,
  type NotifyPrefs,
  onPushQueued,
  type QueuedPush,
  recordEmailSent,
  recordFinalPushed,
  removePushTarget,
  scoredTag,
} from "@/lib/db/notifications.ts";
import { deliverOutboxMessage, mailerDelivers, outboxWrite } from "@/lib/db/outbox.ts";
import { getPlayer } from "@/lib/db/players.ts";
import { nextPushRetryAt } from "@/lib/db/push_retries.ts";
import { ordinal } from "@/lib/domain/format.ts";
import type { Competition, Entry } from "@/lib/domain/types.ts";
import type { MailMessage } from "@/lib/email/mailer.ts";
import { buildDeadlineReminder, buildResultEmail, captainNote, unsubscribeUrl } from "./emails.ts";
import { eachLimited, type PushMessage, pushPolicy } from "./push.ts";
import { afterFailedPush, finalsRetrying, PUSH_TTL_MS, retryPushes } from "./retry.ts";
import { unsubscribeToken, vapidKeys } from "./secrets.ts";
import type { NotifyDeps, NotifyReport } from "./state.ts";

export type { NotifyDeps, NotifyReport };

/** The reminder goes this long before the deadline. */
export const REMINDER_BEFORE_MS = 3_600_000;
/** Pushes in flight at once. */
export const PUSH_CONCURRENCY = 64;
/** Settings read per page of a competition. */
const PAGE = 2_000;
/** One run stops starting work after this (the job's time limit is 50 s). */
const RUN_BUDGET_MS = 35_000;
/** E-mails written per run at most. */
const MAILS_PER_RUN = 1_000;
/**
 * The push queue's lease: one drainer per store at a time. Renewed while a run goes on, so a dead
 * drainer's lapses within 15 s and the pushes it left go soon after.
 */
const DRAIN_LEASE = "push queue";
const DRAIN_LEASE_MS = 15_000;

function emptyReport(): NotifyReport {
  return {
    reminders: 0,
    results: 0,
    finals: 0,
    pushes: 0,
    gone: 0,
    failed: 0,
    retrying: 0,
    dropped: 0,
  };
}

/** What `pushAll` sends: which opt-in, the message per entry, and when the message was made. */
interface PushSend {
  kind: "scored" | "final";
  /** The scoring event a "scored" push tells of (its tag may be an earlier event's). */
  eventId?: number;
  /** A correction of a removed event (its retry replaces the kept push of the same tag). */
  removed?: boolean;
  message: (prefs: NotifyPrefs) => PushMessage & { tag: string };
  /** ms since the epoch; the message is not sent past this plus its TTL. */
  bornAt: number;
  sent?: (prefs: NotifyPrefs) => Promise<void>;
}

/**
 * Sends a message to every target, removing the subscriptions the push service says are gone;
 * a send refused for now is kept for a retry (retry.ts) before this returns, so before the caller
 * records the send done.
 */
async function pushAll(
  deps: NotifyDeps,
  targets: NotifyPrefs[],
  { kind, eventId, removed, message, bornAt, sent }: PushSend,
  report: NotifyReport,
): Promise<void> {
  if (targets.length === 0) return;
  const vapid = await vapidKeys(deps.kv, deps.notify, deps.config ?? {});
  const messages = targets.map(message);
  const results = await deps.notify.pool.send(
    targets.map((prefs, i) => ({ target: prefs.push!, message: messages[i] })),
    vapid,
    pushPolicy(deps.config),
  );
  await eachLimited(targets.map((_, i) => i), 16, async (i) => {
    const [prefs, result] = [targets[i], results[i]];
    if (result === "sent") {
      report.pushes++;
      await sent?.(prefs);
    } else if (result === "gone") {
      report.gone++;
      await removePushTarget(deps.kv, prefs.competitionId, prefs.entryId, prefs.push!.endpoint);
    } else {
      report.failed++;
      const { competitionId, entryId } = prefs;
      const push = {
        competitionId,
        entryId,
        kind,
        ...(eventId === undefined ? {} : { eventId }),
        ...(removed ? { removed } : {}),
        message: messages[i],
        attempts: 1,
        expiresAt: bornAt + PUSH_TTL_MS,
      };
      if (await afterFailedPush(deps.kv, push, result, null, Date.now())) report.retrying++;
    }
  });
}

const EVENT_WORDS: Record<string, string> = {
  GOAL: "scored",
  ASSIST: "assisted a goal",
  PENALTY_SAVE: "saved a penalty",
  CLEAN_SHEET: "kept a clean sheet",
};

/** What a correction says was taken back, by event type. */
const REMOVED_WORDS: Record<string, string> = {
  GOAL: "goal was ruled out",
  ASSIST: "assist was taken off",
  PENALTY_SAVE: "penalty save was taken off",
  CLEAN_SHEET: "clean sheet was taken off",
};

/** The push of a queued event: "Your pick scored", or for a removed event its "Correction". */
function scoredMessage(item: QueuedPush, name: string | undefined) {
  const { competitionId, eventType, removed } = item;
  const body = removed
    ? `${name ?? "Your player"}'s ${REMOVED_WORDS[eventType] ?? "points were taken off"}.`
    : `${name ?? "One of your players"} ${EVENT_WORDS[eventType] ?? "scored"}.`;
  return {
    title: removed ? "Correction" : "Your pick scored",
    body,
    url: `/leaderboard/${competitionId}`,
    tag: scoredTag(item),
  };
}

/**
 * Pushes the queued scoring events to the browsers of the entries holding their player (those
 * that asked for "my picks scored"), and the corrections of removed ones (same tag), a page of
 * settings at a time, the queue item keeping how far it got (a cut-short run repeats at most the
 * two pages in flight), then the kept pushes due at `now` (retry.ts). One drainer per store (a
 * lease). Returns how many pushes went, or null when another drainer holds the queue.
 */
export async function drainPushQueue(
  deps: NotifyDeps,
  until = Date.now() + RUN_BUDGET_MS,
  report = emptyReport(),
  now = new Date(),
): Promise<number | null> {
  const owner = crypto.randomUUID();
  if (!await takeLease(deps.kv, DRAIN_LEASE, owner, DRAIN_LEASE_MS)) return null;
  const lease = keepLease(deps.kv, DRAIN_LEASE, owner, DRAIN_LEASE_MS);
  const before = report.pushes;
  try {
    if (await drainQueue(deps, until, report)) await retryPushes(deps, now, until, report);
  } finally {
    await lease.stop(true);
  }
  return report.pushes - before;
}

/** Pushes every queued event; false when the time ran out first. */
async function drainQueue(deps: NotifyDeps, until: number, report: NotifyReport) {
  for (;;) {
    const queue = await listPushQueue(deps.kv);
    if (queue.length === 0) return true;
    for (const item of queue) {
      if (!await pushQueuedEvent(deps, item, until, report)) return false;
    }
  }
}

/** Pushes one queued event to its entries; false when the time ran out first. */
async function pushQueuedEvent(
  deps: NotifyDeps,
  first: Deno.KvEntry<QueuedPush>,
  until: number,
  report: NotifyReport,
): Promise<boolean> {
  const { competitionId: cid, playerId } = first.value;
  const player = await getPlayer(deps.kv, playerId);
  // The message is as old as its event (or its removal): past its TTL a retry is dropped.
  const bornAt = Date.parse(first.value.queuedAt);
  const message = () => scoredMessage(first.value, player?.name);
  const { eventId, removed } = first.value;
  const send: PushSend = { kind: "scored", eventId, removed, message, bornAt };
  const limit = deps.pushPage ?? PAGE;
  const read = (after: number) => listNotifyPrefs(deps.kv, cid, { after, limit });
  // Two pages at a time: the next page is read and its pushes start while the last pushes of the
  // one before finish (the workers never wait for a page's tail). The queue item moves past a
  // page only once it and every page before it are done.
  let item = first;
  if (!item.value.started) {
    // Marked before the first send: its event removed first, nothing goes (queueEventPushes).
    const started = await advancePushQueue(deps.kv, item, item.value.after);
    if (!started) return true;
    item = started;
  }
  let previous: { sent: Promise<void>; last: number } | null = null;
  /** Waits for the page in flight and moves the item past it; false when another drainer did. */
  const settle = async (): Promise<boolean> => {
    if (!previous) return true;
    const { sent, last } = previous;
    previous = null;
    await sent;
    const moved = await advancePushQueue(deps.kv, item, last);
    if (moved) item = moved;
    return moved !== null;
  };
  let page = await read(item.value.after);
  for (;;) {
    if (page.length === 0 || Date.now() > until) {
      if (!await settle()) return true; // another drainer moved it meanwhile
      if (page.length > 0) return false;
      await finishPushQueue(deps.kv, item);
      return true;
    }
    const last = page[page.length - 1].value.entryId;
    const targets = page.map((p) => p.value)
      .filter((p) => p.pushScored && p.push && p.playerIds.includes(playerId));
    const sent = pushAll(deps, targets, send, report);
    sent.catch(() => {}); // awaited in settle(); this marks a failure as handled until then
    const next = read(last);
    if (!await settle()) {
      await sent;
      return true;
    }
    previous = { sent, last };
    page = await next;
  }
}

interface Budget {
  until: number;
  mails: number;
  /** Outbox ids to hand to SMTP once written. */
  written: number[];
}

function spent(budget: Budget): boolean {
  return budget.mails <= 0 || Date.now() > budget.until;
}

/** Writes one notification e-mail with its "sent" record; false when not written (retry). */
async function writeMail(
  deps: NotifyDeps,
  prefs: Deno.KvEntry<NotifyPrefs>,
  kind: "deadlineEmail" | "resultEmail",
  mail: MailMessage,
  budget: Budget,
  now: Date,
): Promise<boolean> {
  const staged = outboxWrite(mail, {
    deliver: mailerDelivers(deps.mailer),
    about: `notify:${kind}:${prefs.value.entryId}`,
  });
  const ok = await recordEmailSent(deps.kv, prefs, kind, staged, now);
  if (ok) {
    budget.mails--;
    budget.written.push(staged.id);
  }
  return ok;
}

/** The entry of some settings, unless it is gone or refunded, or its address bounced. */
async function mailableEntry(deps: NotifyDeps, prefs: NotifyPrefs): Promise<Entry | null> {
  if (await bouncedAt(deps.kv, prefs.email)) return null;
  const entry = await getEntry(deps.kv, prefs.entryId);
  return entry && !entry.refundedAt ? entry : null;
}

/** Reminds the entrants of `c` who asked, within the hour before its deadline. */
async function remindBeforeDeadline(
  deps: NotifyDeps,
  c: Competition,
  origin: string,
  now: Date,
  budget: Budget,
  report: NotifyReport,
): Promise<void> {
  if (c.status !== "UPCOMING" || !c.deadline) return;
  const deadline = Date.parse(c.deadline);
  if (now.getTime() < deadline - REMINDER_BEFORE_MS) return;
  if (await notifyDone(deps.kv, "deadline", c.id)) return;
  if (now.getTime() >= deadline) return await markNotifyDone(deps.kv, "deadline", c.id);
  for (const prefs of await listNotifyPrefs(deps.kv, c.id)) {
    if (!prefs.value.deadlineEmail || prefs.value.deadlineSentAt) continue;
    if (spent(budget)) return;
    const entry = await mailableEntry(deps, prefs.value);
    // Whoever entered inside the reminder's hour has just seen the deadline: a reminder seconds
    // after their confirmation would only be noise.
    if (!entry || Date.parse(entry.createdAt) >= deadline - REMINDER_BEFORE_MS) continue;
    const token = await unsubscribeToken(deps.kv, deps.notify, c.id, entry.id);
    const captains = await captainNote(deps.kv, entry, c);
    const mail = buildDeadlineReminder(entry, c, origin, unsubscribeUrl(origin, token), captains);
    if (await writeMail(deps, prefs, "deadlineEmail", mail, budget, now)) report.reminders++;
  }
}

/** Tells the entrants of a completed `c` who asked their result (e-mail) and the standings (push). */
async function tellResults(
  deps: NotifyDeps,
  c: Competition,
  origin: string,
  now: Date,
  budget: Budget,
  report: NotifyReport,
): Promise<void> {
  if (c.status !== "COMPLETED") return;
  if (await notifyDone(deps.kv, "result", c.id)) return;
  if ((await deps.kv.get(keys.awardsRecorded(c.id))).value === null) return;
  let complete = true;
  const pushes: NotifyPrefs[] = [];
  const pushed = new Map<number, Deno.KvEntry<NotifyPrefs>>();
  // A final push that failed for now is kept for its retry (retry.ts), not sent anew: the
  // competition may be marked done below with it still waiting.
  const retrying = await finalsRetrying(deps.kv, c);
  for (const prefs of await listNotifyPrefs(deps.kv, c.id)) {
    const p = prefs.value;
    if (p.pushFinal && p.push && !p.finalPushedAt && !retrying.has(p.entryId)) {
      pushes.push(p);
      pushed.set(p.entryId, prefs);
    }
    if (!p.resultEmail || p.resultSentAt) continue;
    if (spent(budget)) {
      complete = false;
      break;
    }
    const entry = await mailableEntry(deps, p);
    if (!entry) continue;
    const token = await unsubscribeToken(deps.kv, deps.notify, c.id, entry.id);
    const captains = await captainNote(deps.kv, entry, c, true);
    const mail = buildResultEmail(entry, c, origin, unsubscribeUrl(origin, token), captains);
    if (await writeMail(deps, prefs, "resultEmail", mail, budget, now)) report.results++;
    else complete = false;
  }
  const ranks = new Map<number, Entry | null>();
  for (const p of pushes) ranks.set(p.entryId, await getEntry(deps.kv, p.entryId));
  await pushAll(deps, pushes, {
    kind: "final",
    message: (p) => {
      const rank = ranks.get(p.entryId)?.rank;
      return {
        title: `Final standings: ${c.name}`,
        body: rank ? `Your team finished ${ordinal(rank)}.` : "The final standings are in.",
        url: `/leaderboard/${c.id}`,
        tag: `final-${c.id}`,
      };
    },
    bornAt: Date.now(),
    sent: async (p) => {
      report.finals++;
      // A settings change meanwhile: the push went; it is recorded on the next run's read.
      await recordFinalPushed(deps.kv, pushed.get(p.entryId)!, now);
    },
  }, report);
  if (complete) await markNotifyDone(deps.kv, "result", c.id);
}

/**
 * One run of the "notifications" job: queued scoring pushes, deadline reminders, results. The
 * e-mails are written to the outbox with their "sent" record (one atomic each), then handed to
 * SMTP at once (the outbox job retries what fails).
 */
export async function runNotifications(
  deps: NotifyDeps,
  origin: string,
  now = new Date(),
): Promise<NotifyReport> {
  const report = emptyReport();
  const until = Date.now() + RUN_BUDGET_MS;
  await drainPushQueue(deps, until, report, now);
  const budget: Budget = { until, mails: MAILS_PER_RUN, written: [] };
  for (const c of await listCompetitions(deps.kv)) {
    if (spent(budget)) break;
    await remindBeforeDeadline(deps, c, origin, now, budget, report);
    await tellResults(deps, c, origin, now, budget, report);
  }
  if (mailerDelivers(deps.mailer)) {
    for (const id of budget.written) {
      if (Date.now() > until) break;
      await deliverOutboxMessage(deps.kv, deps.mailer, id);
    }
  }
  return report;
}

const RETRY_KICK_MS = 1_000;

/** This isolate's push drainer: runs `drainPushQueue` whenever a scoring event is queued. */
export interface PushDrainer {
  stop(): Promise<void>;
}

/**
 * Starts draining the push queue of `deps.kv` as soon as events are queued in this isolate, and
 * again when the next kept push is due (the "notifications" job also sends them, every minute).
 */
export function startPushDrainer(deps: NotifyDeps): PushDrainer {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const kickAtNextRetry = async () => {
    const at = await nextPushRetryAt(deps.kv);
    clearTimeout(retryTimer);
    if (at === null || stopped) return;
    retryTimer = setTimeout(kick, Math.max(RETRY_KICK_MS, at - Date.now()));
    Deno.unrefTimer(retryTimer);
  };
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          // Another drainer holds the queue: look again in a moment (it may have just finished).
          if (await drainPushQueue(deps) === null && !stopped) {
            Deno.unrefTimer(setTimeout(kick, RETRY_KICK_MS));
          } else if ((await listPushQueue(deps.kv, 1)).length > 0) {
            again = true; // a run's time budget ran out with pushes left: go on at once
          } else {
            await kickAtNextRetry();
          }
        } catch (err) {
          console.error(`Push queue: ${err instanceof Error ? err.message : err}`);
        }
      } while (again && !stopped);
    })().finally(() => running = null);
  };
  onPushQueued(deps.kv, kick);
  return {
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      onPushQueued(deps.kv, null);
      await running;
      deps.notify.pool.close();
    },
  };
}
