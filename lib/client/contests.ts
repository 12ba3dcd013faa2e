/** Ordering of contest lists shared by the home page (server) and its refreshing island. */

interface HasDeadline {
  id: number;
  deadline: string | null;
}

function deadlineTime(c: HasDeadline): number {
  const t = c.deadline ? new Date(c.deadline).getTime() : NaN;
  return Number.isNaN(t) ? Infinity : t;
}

/** A copy sorted by ascending deadline (SPEC §2); no deadline last, ties by id. */
export function sortByDeadline<T extends HasDeadline>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => deadlineTime(a) - deadlineTime(b) || a.id - b.id);
}
