/** Standard competition ranking ("1224") of leaderboard rows. */

/** Points compared at 1 decimal so float noise never splits a tie. */
function pointsKey(points: number): number {
  return Number.isFinite(points) ? Math.round(points * 10) : 0;
}

/**
 * Rows sorted by points, highest first, each with its rank: equal points share a rank and the
 * next rank skips (1, 2, 2, 4). `tieBreak` only orders rows within a tie (e.g. by createdAt);
 * without it tied rows keep their input order. The input is not modified.
 */
export function rankByPoints<T extends { points: number }>(
  rows: T[],
  tieBreak?: (a: T, b: T) => number,
): (T & { rank: number })[] {
  const sorted = [...rows].sort((a, b) =>
    pointsKey(b.points) - pointsKey(a.points) || (tieBreak ? tieBreak(a, b) : 0)
  );
  let rank = 0;
  return sorted.map((row, i) => {
    if (i === 0 || pointsKey(row.points) !== pointsKey(sorted[i - 1].points)) rank = i + 1;
    return { ...row, rank };
  });
}
