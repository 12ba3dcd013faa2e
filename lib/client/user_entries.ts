/**
 * The visitor's own entries, kept in localStorage 'userEntries' so the leaderboard can
 * highlight their rows.
 */

const KEY = "userEntries";

export interface UserEntry {
  competitionId: number;
  teamId: string;
  /** The secret of the entry's private edit link, when this browser paid for it. */
  editToken?: string;
}

function isUserEntry(value: unknown): value is UserEntry {
  const v = value as UserEntry;
  return !!v && typeof v.teamId === "string" && Number.isFinite(Number(v.competitionId));
}

/** Every entry this browser made ([] when none or unreadable). */
export function getUserEntries(): UserEntry[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(isUserEntry).map((e) => ({
      competitionId: Number(e.competitionId),
      teamId: e.teamId,
      ...(typeof e.editToken === "string" ? { editToken: e.editToken } : {}),
    }));
  } catch {
    return [];
  }
}

/** The edit link's secret this browser holds for a team, or null. */
export function editTokenOf(teamId: string): string | null {
  return getUserEntries().find((e) => e.teamId === teamId)?.editToken ?? null;
}

/** Remembers an entry; adding the same team ID twice keeps one (and a known edit secret). */
export function addUserEntry(entry: UserEntry): void {
  const all = getUserEntries();
  const known = all.find((e) => e.teamId === entry.teamId)?.editToken;
  if (!entry.editToken && known) entry = { ...entry, editToken: known };
  const others = all.filter((e) => e.teamId !== entry.teamId);
  try {
    localStorage.setItem(KEY, JSON.stringify([...others, entry]));
  } catch {
    // Storage full or blocked: the entry is still on the server.
  }
}
