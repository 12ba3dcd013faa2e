/**
 * Changing a paid team through its private edit link, free of charge, until the deadline; in a
 * late-swap round contest, pick by pick until each pick's match kicks off.
 *
 * An edit is one atomic decided on what it read: the entry (its revision must be the one the
 * visitor edited, so two windows never overwrite each other unseen), the competition (still
 * open for entries at the moment of the write: a change of status or deadline fails the atomic
 * and the edit is decided again), and every pick with its competition link (same salary as
 * validated). The payer's team index moves with the picks, the roster gets the new record, and
 * the competition's live marker moves so leaderboards and pages follow.
 *
 * In a round contest each pick locks at its own match's kick-off, decided in that same atomic:
 * the round and every match of it are read and checked, so a kick-off reported meanwhile (the
 * feed or an admin marks the match under way) fails the commit and the edit is decided again,
 * and the scheduled kick-off is compared with the clock read for this very attempt, as the
 * deadline is. A refused swap names the player and his lock time and writes nothing.
 */
import type { Competition, Entry, Match, Player, Round } from "@/lib/domain/types.ts";
import {
  isRoundContest,
  lateSwapOn,
  lockedSwapProblem,
  matchLock,
  pickLock,
  type SwapPick,
} from "@/lib/domain/rounds.ts";
import { LOCKED_DEADLINE, lockedBecause } from "@/lib/domain/competition.ts";
import { DISPLAY_NAME_TAKEN, nameSkeleton } from "@/lib/domain/display_name.ts";
import { ConflictError, NotFoundError } from "@/lib/domain/errors.ts";
import { assertCaptaincy, captaincyOf } from "@/lib/domain/captain.ts";
import {
  personOf,
  picksProblems,
  picksSignature,
  SAME_TEAM_AGAIN,
} from "@/lib/domain/paid_entry.ts";
import { InvalidPicksError, pricedPlayer } from "./entry_writes.ts";
import { keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { appendToRoster } from "@/lib/store/roster.ts";
import { getManyEntries } from "@/lib/store/util.ts";

/**
 * What the visitor changes: the five picks, the display name and the captains, on the revision
 * they saw.
 */
export interface TeamEdit {
  playerIds: number[];
  teamName: string;
  /** The entry's revision the edit started from. */
  revision: number;
  /** The captain and vice-captain (required when the competition has captains). */
  captainId?: number;
  viceCaptainId?: number;
}

/** Locked because the deadline passed (a contest that went live says so instead). */
export const EDIT_LOCKED = LOCKED_DEADLINE;
export const EDIT_STALE =
  "This team was changed in another window. Reload the page to see the latest team.";
export const EDIT_REFUNDED = "This entry was refunded and can no longer be changed.";
/** Late swap, once every match of the round kicked off. */
export const EDIT_ALL_KICKED_OFF = "Every match has kicked off: this team is locked.";

/** The entry an edit link opens, or null for an unknown link. */
export async function getEntryByEditToken(kv: Deno.Kv, token: string): Promise<Entry | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const id = (await kv.get<number>(keys.entryByEditToken(token))).value;
  if (id === null) return null;
  return (await kv.get<Entry>(keys.entry(id))).value;
}

/**
 * Why this entry's team cannot be changed now, naming which lock (refunded, the contest went
 * live or finished, the deadline passed), or null while it can. Full is no reason to lock a team
 * that is already in.
 */
export function editLockReason(
  competition: Competition,
  refunded: boolean,
  now: Date,
  matches: readonly Pick<Match, "kickoffTime" | "status">[] = [],
): string | null {
  if (refunded) return EDIT_REFUNDED;
  if (
    lateSwapOn(competition) && (competition.status === "UPCOMING" || competition.status === "LIVE")
  ) {
    // Late swap: the team stays open while any match has yet to kick off; each pick decides.
    const open = matches.some((m) => !matchLock(m, matches, now).locked);
    return open || matches.length === 0 ? null : EDIT_ALL_KICKED_OFF;
  }
  return lockedBecause(competition, now);
}

/** Most attempts when the competition record moves under the edit (entries keep arriving). */
const MAX_ATTEMPTS = 20;

/**
 * Applies `edit` to the entry of `token` and returns the entry as stored. NotFoundError for an
 * unknown link; ConflictError when locked, stale, refunded or the same team as another of the
 * payer's entries; InvalidPicksError when the picks break a rule.
 */
export async function editEntry(
  kv: Deno.Kv,
  token: string,
  edit: TeamEdit,
  clock: () => Date = () => new Date(),
): Promise<Entry> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const updated = await attemptEdit(kv, token, edit, clock());
    if (updated) return updated;
  }
  throw new ConflictError("The team could not be saved right now. Please try again.");
}

async function attemptEdit(
  kv: Deno.Kv,
  token: string,
  edit: TeamEdit,
  now: Date,
): Promise<Entry | null> {
  const idEntry = /^[0-9a-f]{32}$/.test(token)
    ? await kv.get<number>(keys.entryByEditToken(token))
    : null;
  if (!idEntry?.value) throw new NotFoundError("Entry not found");
  const [entryRead] = await getManyEntries(kv, [keys.entry(idEntry.value)]);
  const entry = entryRead.value as Entry | null;
  if (!entry) throw new NotFoundError("Entry not found");
  const cid = entry.competitionId;
  const person = personOf(entry.email);
  const oldTeamKey = keys.personTeam(cid, person, picksSignature(entry.playerIds));
  const newTeamKey = keys.personTeam(cid, person, picksSignature(edit.playerIds));
  const oldNameKey = keys.teamNameInCompetition(cid, nameSkeleton(entry.teamName));
  const newNameKey = keys.teamNameInCompetition(cid, nameSkeleton(edit.teamName));
  const [competitionRead, refundRead, newTeamRead, oldNameRead, newNameRead, ...picks] =
    await getManyEntries(kv, [
      keys.competition(cid),
      keys.refund(entry.stripePaymentId),
      newTeamKey,
      oldNameKey,
      newNameKey,
      ...edit.playerIds.map(keys.player),
      ...edit.playerIds.map((id) => keys.competitionPlayer(cid, id)),
    ]);
  const competition = competitionRead.value as Competition | null;
  if (!competition) throw new NotFoundError("Competition not found");
  const round = isRoundContest(competition)
    ? await readRoundLocks(kv, competition.roundId!, entry.playerIds, edit.playerIds)
    : null;
  const matches = round?.matches.map((m) => m.value as Match) ?? [];
  const locked = editLockReason(competition, refundRead.value !== null, now, matches);
  if (locked) throw new ConflictError(locked);
  if ((entry.revision ?? 0) !== edit.revision) throw new ConflictError(EDIT_STALE);

  const links = picks.slice(edit.playerIds.length);
  const players = picks.slice(0, edit.playerIds.length).map((p, i) =>
    pricedPlayer(p.value as Player | null, links[i].value as { salary?: unknown } | null)
  );
  const problems = picksProblems(competition, {
    players,
    linked: links.map((link) => link.value !== null),
  });
  if (problems.length > 0) {
    throw new InvalidPicksError(
      problems[0],
      problems.map((message) => ({ path: ["playerIds"], message })),
    );
  }
  assertCaptaincy(competition, edit.playerIds, edit);
  if (round) {
    const pickOf = (id: number): SwapPick => {
      const player = round.players.get(id) ?? null;
      return {
        id,
        name: player?.name ?? `Player ${id}`,
        lock: player ? pickLock(matches, player.teamId, now) : null,
      };
    };
    const problem = lockedSwapProblem(entry.playerIds.map(pickOf), edit.playerIds.map(pickOf)) ??
      captainSwapProblem(entry, edit, pickOf);
    if (problem) throw new ConflictError(problem, [{ path: ["playerIds"], message: problem }]);
  }
  const sameTeam = newTeamRead.value !== null && newTeamRead.value !== entry.id;
  if (sameTeam) throw new ConflictError(SAME_TEAM_AGAIN);
  if (newNameRead.value !== null && newNameRead.value !== entry.id) {
    throw new ConflictError(DISPLAY_NAME_TAKEN, [
      { path: ["teamName"], message: DISPLAY_NAME_TAKEN },
    ]);
  }

  const { captainId: _c, viceCaptainId: _v, ...rest } = entry;
  const updated: Entry = {
    ...rest,
    ...captaincyOf(edit),
    playerIds: [...edit.playerIds],
    teamName: edit.teamName,
    pickSalaries: (players as Player[]).map((p) => p.salary),
    revision: (entry.revision ?? 0) + 1,
    editedAt: now.toISOString(),
  };
  const op = kv.atomic()
    .check(entryRead, competitionRead, refundRead, newTeamRead, newNameRead, ...picks)
    .check(...(round ? [round.round, ...round.matches] : []))
    .set(keys.entry(entry.id), updated)
    .delete(oldTeamKey)
    .set(newTeamKey, entry.id);
  // The entry's display name moves with it (an older entry's name may have no record yet).
  const renamed = oldNameRead.key.join("\u0000") !== newNameRead.key.join("\u0000");
  if (renamed && oldNameRead.value === entry.id) op.check(oldNameRead).delete(oldNameKey);
  op.set(newNameKey, entry.id);
  appendToRoster(op, updated);
  bumpLive(op, cid);
  const res = await op.commit();
  return res.ok ? updated : null;
}

/** A round's record, its matches and the players of both teams, as one edit reads them. */
interface RoundLocks {
  round: Deno.KvEntryMaybe<Round>;
  matches: Deno.KvEntryMaybe<Match>[];
  players: Map<number, Player>;
}

/** Reads what decides the locks of an edit in a round contest (every read is checked). */
async function readRoundLocks(
  kv: Deno.Kv,
  roundId: number,
  before: number[],
  after: number[],
): Promise<RoundLocks> {
  const round = await kv.get<Round>(keys.round(roundId));
  const ids = [...new Set([...before, ...after])];
  const [matchReads, playerReads] = await Promise.all([
    getManyEntries<Match>(kv, (round.value?.matchIds ?? []).map(keys.match)),
    getManyEntries<Player>(kv, ids.map(keys.player)),
  ]);
  const players = new Map(
    playerReads.flatMap((p) => p.value ? [[p.value.id, p.value] as const] : []),
  );
  return { round, matches: matchReads.filter((m) => m.value !== null), players };
}

/**
 * A change of captain or vice-captain involving a locked pick (the one losing or taking the
 * role), named with his lock time; null otherwise.
 */
function captainSwapProblem(
  entry: Entry,
  edit: TeamEdit,
  pickOf: (id: number) => SwapPick,
): string | null {
  const pairs = [[entry.captainId, edit.captainId], [entry.viceCaptainId, edit.viceCaptainId]];
  for (const [was, now] of pairs) {
    if (was === now) continue;
    for (const id of [was, now]) {
      if (id === undefined) continue;
      const pick = pickOf(id);
      if (pick.lock?.locked) return lockedSwapProblem([pick], []);
    }
  }
  return null;
}
