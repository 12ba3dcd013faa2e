/**
 * The visitor's picks: player ids together with the competition they
 * belong to, kept in session storage so a reload keeps them. Picks of another competition are
 * never returned.
 */

/** The session-storage key of the picks (also read by the checkout's prepaint script). */
export const SELECTION_KEY = "selectedTeam";

interface StoredSelection {
  competitionId: number;
  playerIds: number[];
  /** The captain and vice-captain among the picks (competitions with captains). */
  captainId?: number;
  viceCaptainId?: number;
}

/** A stored captain choice: ids of two different picks (absent ones left out). */
export interface StoredCaptains {
  captainId?: number;
  viceCaptainId?: number;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

function isIdList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((id) => Number.isInteger(id) && id > 0);
}

/** The stored selection of this competition, or null (none, another's, or unreadable). */
function stored(competitionId: number): StoredSelection | null {
  const raw = storage()?.getItem(SELECTION_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as StoredSelection;
    return value?.competitionId === competitionId && isIdList(value.playerIds) ? value : null;
  } catch {
    return null;
  }
}

/** The picked player ids for this competition ([] when none, or when they belong to another). */
export function loadSelection(competitionId: number): number[] {
  const value = stored(competitionId);
  return value ? [...new Set(value.playerIds)] : [];
}

/** The stored captain and vice-captain of this competition's picks (only those among them). */
export function loadCaptains(competitionId: number): StoredCaptains {
  const value = stored(competitionId);
  const out: StoredCaptains = {};
  if (!value) return out;
  if (value.playerIds.includes(value.captainId!)) out.captainId = value.captainId;
  if (value.playerIds.includes(value.viceCaptainId!) && value.viceCaptainId !== out.captainId) {
    out.viceCaptainId = value.viceCaptainId;
  }
  return out;
}

/** Replaces the picks with these ids (and the captains among them) for this competition. */
export function saveSelection(
  competitionId: number,
  playerIds: number[],
  captains: StoredCaptains = {},
): void {
  const value: StoredSelection = { competitionId, playerIds, ...captains };
  try {
    storage()?.setItem(SELECTION_KEY, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the selection lives for this page only.
  }
}

/** Forgets the picks (after a successful entry). */
export function clearSelection(): void {
  storage()?.removeItem(SELECTION_KEY);
}
