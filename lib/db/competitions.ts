/** Competitions (contests), with the `["competitions_by_match", matchId, cid]` index. */
import type { Competition, Match } from "@/lib/domain/types.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { whyNoValidTeam } from "./competition_players.ts";
import { listPlayersByTeam } from "./players.ts";
import { competitionMatches, linkRound, readRoundForLink, roundMatches } from "./rounds.ts";
import { firstKickoff } from "@/lib/domain/rounds.ts";
import { missingForTeam, rulesOf } from "@/lib/domain/team_rules.ts";
import { countPaidEntries } from "./entries.ts";
import { reserveIds } from "@/lib/store/ids.ts";
import { auditInto, type AuditStamp } from "./audit.ts";
import { keys } from "@/lib/store/keys.ts";
import { touch } from "@/lib/store/touch.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { startRoster } from "@/lib/store/roster.ts";
import { awardPrizes } from "./standings.ts";
import { toCents } from "@/lib/domain/format.ts";
import { statusAgainstClock } from "@/lib/domain/competition.ts";
import { captainMultiplierOf } from "@/lib/domain/captain.ts";
import {
  assertReversible,
  awardsText,
  readAwards,
  reversalNotice,
  reverseAwards,
} from "./award_reversal.ts";
import { deleteKeys, getManyValues, listKeys, listValues, retryAtomic } from "@/lib/store/util.ts";

type Editable = Omit<Competition, "id" | "currentEntries" | "createdAt">;
type Required = "name" | "league" | "entryFee" | "prizePool";

/** What a create needs; every other field takes the default. */
export type CompetitionInput = Pick<Editable, Required> & Partial<Omit<Editable, Required>>;

const DEFAULTS: Omit<Editable, Required | "deadline"> = {
  description: null,
  matchId: null,
  prizeType: "CASH",
  customPrizeDescription: null,
  currency: "USD",
  status: "UPCOMING",
  maxEntries: null,
  maxEntriesPerPerson: 1,
  minEntries: null,
  imageUrl: null,
  maxPlayersPerTeam: 3,
  maxForwards: 2,
  minDefenders: 1,
  salaryCap: 50000,
  // On for competitions admins create (the API's default); off here for the rest (demo data).
  autoStatus: false,
  captainMultiplier: null,
  format: null,
  unlisted: false,
  roundId: null,
  lateSwap: false,
};

const EDITABLE_FIELDS = [
  "name",
  "league",
  "entryFee",
  "prizePool",
  "deadline",
  ...Object.keys(DEFAULTS),
] as (keyof Editable)[];

/**
 * A competition's deadline: the one given, else its match's kick-off, else its round's first
 * kick-off (no entry after it).
 */
async function deadlineOf(
  kv: Deno.Kv,
  deadline: string | undefined,
  matchId: number | null | undefined,
  roundId?: number | null,
): Promise<string | undefined> {
  if (deadline !== undefined) return isoDeadline(deadline);
  if (typeof roundId === "number") {
    const round = (await readRoundForLink(kv, roundId)).value;
    const first = firstKickoff(await roundMatches(kv, round));
    if (first === null) throw fieldError("roundId", `Round ${roundId} has no matches.`);
    return first;
  }
  if (matchId === null || matchId === undefined) return undefined;
  return (await readMatch(kv, matchId)).value.kickoffTime;
}

/**
 * A 400 when a contest would be on a match and a round at once, or when a round contest's
 * deadline falls after the round's first kick-off (its first picks would lock before it).
 */
async function assertRoundFields(kv: Deno.Kv, fields: Partial<Editable>): Promise<void> {
  if (typeof fields.roundId !== "number") return;
  if (typeof fields.matchId === "number") {
    throw fieldError("roundId", "A competition is on one match or on one round, not both.");
  }
  if (fields.deadline === undefined) return;
  const round = (await readRoundForLink(kv, fields.roundId)).value;
  const first = firstKickoff(await roundMatches(kv, round));
  if (first !== null && Date.parse(fields.deadline) > Date.parse(first)) {
    throw fieldError(
      "deadline",
      `The deadline cannot be after the round's first kick-off (${
        first.slice(0, 16).replace("T", " ")
      } UTC).`,
    );
  }
}

/** Only the editable fields of `input` (ids, counters and createdAt are never taken from input). */
function editableOf(input: Partial<Editable>): Partial<Editable> {
  const out: Record<string, unknown> = {};
  for (const field of EDITABLE_FIELDS) {
    if (input[field] !== undefined) out[field] = input[field];
  }
  return out as Partial<Editable>;
}

function isoDeadline(deadline: string): string {
  const date = new Date(deadline);
  if (Number.isNaN(date.getTime())) {
    throw fieldError("deadline", "Deadline is required");
  }
  return date.toISOString();
}

async function readMatch(kv: Deno.Kv, matchId: number): Promise<Deno.KvEntry<Match>> {
  const entry = await kv.get<Match>(keys.match(matchId));
  if (entry.value === null) {
    throw fieldError("matchId", `Match ${matchId} does not exist.`);
  }
  return entry as Deno.KvEntry<Match>;
}

/** Links a match: index + rewrite of the match record, so a concurrent deleteMatch fails its check. */
function linkMatch(op: Deno.AtomicOperation, match: Deno.KvEntry<Match>, cid: number): void {
  op.check(match)
    .set(match.key, match.value)
    .set(keys.competitionByMatch(match.value.id, cid), cid);
}

/** Creates a competition with the defaults, currentEntries 0 and createdAt now. */
export async function createCompetition(
  kv: Deno.Kv,
  input: CompetitionInput,
): Promise<Competition> {
  const fields = { ...DEFAULTS, ...editableOf(input) } as Editable;
  const deadline = await deadlineOf(kv, input.deadline, fields.matchId, fields.roundId);
  if (deadline === undefined) throw fieldError("deadline", "Deadline is required");
  fields.deadline = deadline;
  await assertRoundFields(kv, fields);
  if (fields.matchId !== null || typeof fields.roundId === "number") {
    await assertCapFitsMatch(kv, fields);
  }
  return await retryAtomic("create the competition", async () => {
    const match = fields.matchId === null ? null : await readMatch(kv, fields.matchId);
    const round = typeof fields.roundId === "number"
      ? await readRoundForLink(kv, fields.roundId)
      : null;
    const reservation = await reserveIds(kv, "competitions");
    const id = reservation.ids[0];
    const competition: Competition = {
      id,
      ...fields,
      currentEntries: 0,
      createdAt: new Date().toISOString(),
    };
    const op = reservation.claim(kv.atomic())
      .check({ key: keys.competition(id), versionstamp: null })
      .set(keys.competition(id), competition);
    startRoster(op, id);
    touch(op, { competition: id });
    if (match) linkMatch(op, match, id);
    if (round) linkRound(op, round, id);
    const res = await op.commit();
    return res.ok ? competition : undefined;
  });
}

/** The competition with this id, or null. */
export async function getCompetition(kv: Deno.Kv, id: number): Promise<Competition | null> {
  return (await kv.get<Competition>(keys.competition(id))).value;
}

/** The competition with this id; NotFoundError ('Competition not found') otherwise. */
export async function requireCompetition(kv: Deno.Kv, id: number): Promise<Competition> {
  const competition = await getCompetition(kv, id);
  if (!competition) throw new NotFoundError("Competition not found");
  return competition;
}

/** The competitions with these ids, by id (unknown ids left out). */
export async function getCompetitionsByIds(
  kv: Deno.Kv,
  ids: Iterable<number>,
): Promise<Map<number, Competition>> {
  const unique = [...new Set(ids)];
  const found = await getManyValues<Competition>(kv, unique.map(keys.competition));
  return new Map(found.map((c) => [c.id, c]));
}

/** Every competition, sorted by deadline ascending (then id). */
export async function listCompetitions(kv: Deno.Kv): Promise<Competition[]> {
  const all = await listValues<Competition>(kv, keys.competitions());
  return all.sort((a, b) => a.deadline.localeCompare(b.deadline) || a.id - b.id);
}

/**
 * The competitions visitors see, by deadline: an UPCOMING one is left out until its players make
 * at least one valid team under its rules (see whyNoValidTeam), an unlisted one always.
 */
export async function listPublicCompetitions(kv: Deno.Kv): Promise<Competition[]> {
  const all = await listCompetitions(kv);
  const hidden = await Promise.all(
    all.map(async (c) => c.status === "UPCOMING" && (await whyNoValidTeam(kv, c)) !== null),
  );
  // A private contest is reached by its link only (GET /api/competitions/{id} still answers).
  return all.filter((c, i) => !hidden[i] && !c.unlisted);
}

/** How a status change was asked for. */
export interface StatusChangeOptions {
  /** Only when the competition still has this status (an automatic step): else a ConflictError (STATUS_MOVED). */
  expectStatus?: Competition["status"];
  /** Why (told to winners whose award is withdrawn, kept in the activity log). */
  reason?: string | null;
  now?: Date;
  /** An SMTP mailer sends the winners' notices from the outbox (outbox.ts `mailerDelivers`). */
  deliver?: boolean;
  /** The admin request's activity record, kept in the same commit as the change. */
  audit?: AuditStamp;
}

/**
 * Saves new values for a competition's editable fields and bumps its live key. Becoming
 * COMPLETED awards the prizes (points, ranks and prizes written onto the entries); leaving it
 * withdraws them in the same commit (award_reversal.ts: refused once a prize is claimed or paid).
 */
export async function updateCompetition(
  kv: Deno.Kv,
  id: number,
  input: Partial<Editable>,
  options: StatusChangeOptions = {},
): Promise<Competition> {
  const now = options.now ?? new Date();
  const patch = editableOf(input);
  patch.deadline = await deadlineOf(kv, patch.deadline, patch.matchId, patch.roundId);
  if (patch.deadline === undefined) delete patch.deadline;
  if (patch.roundId !== undefined || patch.deadline !== undefined || patch.matchId !== undefined) {
    const current = (await kv.get<Competition>(keys.competition(id))).value;
    if (current) await assertRoundFields(kv, { ...current, ...patch });
  }
  await assertRulesLeaveATeam(kv, id, patch);
  let wasCompleted = false;
  const saved = await retryAtomic("update the competition", async () => {
    const entry = await kv.get<Competition>(keys.competition(id));
    if (!entry.value) throw new NotFoundError("Competition not found");
    const before = entry.value;
    if (options.expectStatus && before.status !== options.expectStatus) {
      throw new ConflictError(STATUS_MOVED);
    }
    if (before.status === "CANCELLED" && (patch.status ?? "CANCELLED") !== "CANCELLED") {
      throw new ConflictError(CANCELLED_IS_FINAL);
    }
    wasCompleted = before.status === "COMPLETED";
    assertPriceKept(before, patch);
    assertCaptainsKept(before, patch);
    const competition: Competition = { ...before, ...patch, id };
    const op = kv.atomic().check(entry).set(keys.competition(id), competition);
    if (wasCompleted && competition.status !== "COMPLETED") {
      const awards = await readAwards(kv, id);
      assertReversible(before, awards);
      reverseAwards(op, before, awards, {
        reason: options.reason || "the result is being corrected.",
        now,
        deliver: options.deliver ?? false,
      });
    }
    if (competition.matchId !== before.matchId) {
      if (before.matchId !== null) op.delete(keys.competitionByMatch(before.matchId, id));
      if (competition.matchId !== null) linkMatch(op, await readMatch(kv, competition.matchId), id);
    }
    if ((competition.roundId ?? null) !== (before.roundId ?? null)) {
      if (typeof before.roundId === "number") {
        op.delete(keys.competitionByRound(before.roundId, id));
      }
      if (typeof competition.roundId === "number") {
        linkRound(op, await readRoundForLink(kv, competition.roundId), id);
      }
    }
    // Completing (again) awards anew; the sweep finishes it if this process dies first.
    if (competition.status === "COMPLETED" && !wasCompleted) op.delete(keys.awardsRecorded(id));
    bumpLive(op, id);
    auditInto(op, options.audit, { competitionId: id, before, after: competition, at: now });
    const res = await op.commit();
    return res.ok ? competition : undefined;
  });
  if (saved.status === "COMPLETED" && !wasCompleted) await awardPrizes(kv, id);
  return saved;
}

export const CAPTAINS_KEPT = "The captain option cannot change once the contest has entries.";

/** Entrants chose their captains under the option as it was: it stays while entries exist. */
function assertCaptainsKept(before: Competition, patch: Partial<Editable>): void {
  if (patch.captainMultiplier === undefined || before.currentEntries === 0) return;
  if (captainMultiplierOf(before) === captainMultiplierOf(patch)) return;
  throw new ConflictError(CAPTAINS_KEPT, [{ path: ["captainMultiplier"], message: CAPTAINS_KEPT }]);
}

/**
 * A new competition on a match: throws a 400 on `salaryCap` when the players of the match's two
 * clubs, at their default salaries (what "Add the match's players" gives the competition), could
 * make a team under the other rules but not under the cap. Saved, such a contest would be hidden
 * from every visitor as soon as its players were added.
 */
async function assertCapFitsMatch(kv: Deno.Kv, fields: Editable): Promise<void> {
  const matches = fields.matchId !== null
    ? [(await readMatch(kv, fields.matchId)).value]
    : await competitionMatches(kv, fields);
  const clubs = matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]);
  const players = (await Promise.all(clubs.map((club) => listPlayersByTeam(kv, club)))).flat();
  const rules = rulesOf(fields);
  if (rules.salaryCap === null || missingForTeam(players, { ...rules, salaryCap: null })) return;
  const problem = missingForTeam(players, rules);
  if (problem) {
    throw fieldError("salaryCap", `${problem} Raise the cap to fit the match's players.`);
  }
}

const RULE_FIELDS = ["salaryCap", "maxPlayersPerTeam", "maxForwards", "minDefenders"] as const;

/**
 * Throws a 400 on the changed rule (the salary cap first) when the competition's players could
 * make a valid team before `patch` and could not after it: a cap below the cheapest team would
 * hide an open contest from every visitor.
 */
async function assertRulesLeaveATeam(kv: Deno.Kv, id: number, patch: Partial<Editable>) {
  const changed = RULE_FIELDS.filter((f) => f in patch);
  if (changed.length === 0) return;
  const before = (await kv.get<Competition>(keys.competition(id))).value;
  if (!before || before.status !== "UPCOMING") return;
  const after = { ...before, ...patch } as Competition;
  if (changed.every((f) => after[f] === before[f])) return;
  if (await whyNoValidTeam(kv, before) !== null) return;
  const problem = await whyNoValidTeam(kv, after);
  if (problem) {
    const field = changed.find((f) => after[f] !== before[f]) ?? changed[0];
    throw fieldError(field, `${problem} Keep the rules that let its players make a team.`);
  }
}

/**
 * Throws a ConflictError naming the field when `patch` would change what paid entrants were
 * charged for: the fee, its currency or the prize type. Refunds, e-mails and the books use the
 * amount of each payment, but entrants bought a place at that price for that kind of prize.
 */
function assertPriceKept(before: Competition, patch: Partial<Editable>): void {
  if (before.currentEntries === 0) return;
  const paid = `${before.currentEntries} paid ${before.currentEntries === 1 ? "entry" : "entries"}`;
  const refuse = (field: string, what: string) => {
    const message = `The ${what} cannot change: this competition has ${paid}. ` +
      "Cancel it to refund everyone instead.";
    throw new ConflictError(message, [{ path: [field], message }]);
  };
  if (patch.entryFee !== undefined && toCents(patch.entryFee) !== toCents(before.entryFee)) {
    refuse("entryFee", "entry fee");
  }
  if (patch.currency !== undefined && patch.currency !== before.currency) {
    refuse("currency", "currency");
  }
  if (patch.prizeType !== undefined && patch.prizeType !== before.prizeType) {
    refuse("prizeType", "prize type");
  }
}

/** An automatic step found the status already changed (by another run or an admin). */
export const STATUS_MOVED = "The status changed meanwhile.";

/** Why a cancelled competition cannot be edited back into play. */
export const CANCELLED_IS_FINAL = "This competition was cancelled and every entry refunded; " +
  "it cannot be reopened.";

/**
 * Marks a competition CANCELLED (final) with the reason, and bumps its live key. An entry being
 * created at the same time either commits first (and is then refunded) or is refused. Cancelling
 * again returns the competition unchanged; a COMPLETED competition cannot be cancelled.
 */
export function markCompetitionCancelled(
  kv: Deno.Kv,
  id: number,
  reason: string,
  now = new Date(),
  audit?: AuditStamp,
): Promise<Competition> {
  return retryAtomic("cancel the competition", async () => {
    const entry = await kv.get<Competition>(keys.competition(id));
    if (!entry.value) throw new NotFoundError("Competition not found");
    if (entry.value.status === "CANCELLED") return entry.value;
    const awarded = await readAwards(kv, id);
    if (awarded.payouts.length > 0) {
      throw new ConflictError(
        `Prizes were awarded in this competition (${awardsText(awarded)}): ` +
          "it cannot be cancelled and refunded.",
      );
    }
    if (entry.value.status === "COMPLETED") {
      throw new ConflictError("A completed competition cannot be cancelled.");
    }
    const competition: Competition = {
      ...entry.value,
      status: "CANCELLED",
      cancelledAt: now.toISOString(),
      cancelReason: reason,
    };
    const op = kv.atomic().check(entry).set(keys.competition(id), competition);
    auditInto(op, audit, { competitionId: id, before: entry.value, after: competition, at: now });
    const res = await bumpLive(op, id).commit();
    return res.ok ? competition : undefined;
  });
}

/** Every key that hangs from a competition (players, performances, events, prizes, live). */
async function childKeys(kv: Deno.Kv, cid: number): Promise<Deno.KvKey[]> {
  const prefixes = [
    keys.competitionPlayers(cid),
    keys.performances(cid),
    keys.events(cid),
    keys.prizes(cid),
    keys.entriesByCompetition(cid),
    keys.rosterChunks(cid),
    keys.rosterTail(cid),
    keys.rostersWithdrawn(cid),
    keys.pushTagsOf(cid),
  ];
  const lists = await Promise.all(prefixes.map((prefix) => listKeys(kv, prefix)));
  return [...lists.flat(), keys.live(cid), keys.rosterMeta(cid), keys.goalTally(cid)];
}

/**
 * Deletes a competition and everything hanging from it. ConflictError when it has paid entries
 * (the check on the record makes a concurrent entry creation fail, or this delete retry).
 */
export async function deleteCompetition(kv: Deno.Kv, id: number): Promise<void> {
  await retryAtomic("delete the competition", async () => {
    const entry = await kv.get<Competition>(keys.competition(id));
    if (!entry.value) throw new NotFoundError("Competition not found");
    const paid = await countPaidEntries(kv, id);
    if (paid > 0) {
      throw new ConflictError(
        `Cannot delete competition "${entry.value.name}": it has ${paid} paid ${
          paid === 1 ? "entry" : "entries"
        }. Cancel it instead: every entrant is refunded and told by e-mail.`,
      );
    }
    const op = touch(kv.atomic().check(entry).delete(keys.competition(id)), { competition: id });
    if (entry.value.matchId !== null) op.delete(keys.competitionByMatch(entry.value.matchId, id));
    if (typeof entry.value.roundId === "number") {
      op.delete(keys.competitionByRound(entry.value.roundId, id));
    }
    const res = await op.commit();
    return res.ok ? true : undefined;
  });
  await deleteKeys(kv, await childKeys(kv, id), { competition: id });
}

/** What an admin must confirm (with a reason) before a status change, or what refuses it. */
export interface StatusConfirmation {
  force?: boolean;
  reason?: string | null;
}

/**
 * Before an admin's status change: a ConflictError whose `force` issue says why it needs a
 * confirmation (LIVE before kick-off, COMPLETED before the match has a result, leaving
 * COMPLETED: what it withdraws) unless `force` is set with a `reason`; a 400 on `reason` when
 * forced without one; the refusal itself when the awards cannot be withdrawn. Returns whether
 * the admin overrides the clock (a confirmed change, or a step back), which turns the automatic
 * status off.
 */
export async function assertStatusChange(
  kv: Deno.Kv,
  id: number,
  status: Competition["status"] | undefined,
  { force = false, reason = null }: StatusConfirmation,
  now = new Date(),
): Promise<boolean> {
  const before = await requireCompetition(kv, id);
  if (status === undefined || status === before.status) return false;
  const order = ["UPCOMING", "LIVE", "COMPLETED", "CANCELLED"];
  const backward = order.indexOf(status) < order.indexOf(before.status);
  let why: string | null;
  if (before.status === "COMPLETED") {
    const awards = await readAwards(kv, id);
    assertReversible(before, awards);
    why = reversalNotice(awards);
  } else {
    const match = before.matchId === null ? null : await kv.get<Match>(keys.match(before.matchId));
    why = statusAgainstClock(before.status, status, {
      kickoffTime: match?.value?.kickoffTime ?? before.deadline,
      hasMatch: Boolean(match?.value),
      hasResult: match?.value?.status === "COMPLETED",
    }, now);
  }
  if (why === null) return backward;
  if (!force) {
    const message = `${why} Confirm with a reason to go ahead.`;
    throw new ConflictError(message, [{ path: ["force"], message }]);
  }
  if (!reason?.trim()) throw fieldError("reason", "Please say why (a reason is required)");
  return true;
}
