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

/** The picked player ids for this competition ([] when none, or when they belong to another). */
export function loadSelection(competitionId: number): number[] {
  const raw = storage()?.getItem(SELECTION_KEY);
  if (!raw) return [];
  try {
    const stored = JSON.parse(raw) as StoredSelection;
    if (stored?.competitionId !== competitionId || !isIdList(stored.playerIds)) return [];
    return [...new Set(stored.playerIds)];
  } catch {
    return [];
  }
}

/** Replaces the picks with these ids for this competition. */
export function saveSelection(competitionId: number, playerIds: number[]): void {
  const value: StoredSelection = { competitionId, playerIds };
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
