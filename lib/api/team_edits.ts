/** What the private edit link of an entry shows and accepts: the team, and whether it is locked. */
import { getCompetition } from "@/lib/db/competitions.ts";
import {
  editEntry,
  editLockReason,
  getEntryByEditToken,
  type TeamEdit,
} from "@/lib/db/entry_edits.ts";
import { getRefund } from "@/lib/db/refunds.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import type { Competition, Entry, Match } from "@/lib/domain/types.ts";
import { competitionMatches } from "@/lib/db/rounds.ts";
import { getPlayersByIds } from "@/lib/db/players.ts";
import { isRoundContest, pickLock } from "@/lib/domain/rounds.ts";
import { publicEntry } from "./views.ts";

/** The entry behind an edit link as its owner sees it. */
export interface EditableEntry {
  entry: Entry;
  competition: Competition;
  /** Why the team can no longer change (deadline passed, refunded), or null while it can. */
  locked: string | null;
  /** Round contests: when each pick locks and whether it has ({} otherwise). */
  locks?: Record<number, { lockAt: string; locked: boolean }>;
}

/** The entry of `token` with its competition and lock (NotFoundError for an unknown link). */
export async function editableEntry(
  kv: Deno.Kv,
  token: string,
  now = new Date(),
): Promise<EditableEntry> {
  const entry = await getEntryByEditToken(kv, token);
  const competition = entry && await getCompetition(kv, entry.competitionId);
  if (!entry || !competition) throw new NotFoundError("Entry not found");
  const refund = await getRefund(kv, entry.stripePaymentId);
  const matches: Match[] = isRoundContest(competition)
    ? await competitionMatches(kv, competition)
    : [];
  const locks: EditableEntry["locks"] = {};
  for (
    const player of await getPlayersByIds(kv, isRoundContest(competition) ? entry.playerIds : [])
  ) {
    const lock = pickLock(matches, player.teamId, now);
    if (lock) locks[player.id] = lock;
  }
  return {
    entry,
    competition,
    locked: editLockReason(competition, refund !== null, now, matches),
    locks,
  };
}

/** The JSON of an editable entry: its public view plus the picks, revision and lock. */
export function editView(
  { entry, locked, locks = {} }: Pick<EditableEntry, "entry" | "locked" | "locks">,
) {
  return {
    ...publicEntry(entry),
    playerIds: entry.playerIds,
    captainId: entry.captainId ?? null,
    viceCaptainId: entry.viceCaptainId ?? null,
    revision: entry.revision ?? 0,
    editedAt: entry.editedAt ?? null,
    locked,
    /** Round contests: {playerId: {lockAt, locked}} of each pick. */
    locks,
  };
}

/** Saves the edit and answers with the entry's new view. */
export async function saveTeamEdit(kv: Deno.Kv, token: string, edit: TeamEdit) {
  await editEntry(kv, token, edit);
  return editView(await editableEntry(kv, token));
}
