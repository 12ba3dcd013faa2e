/**
 * The import files of the tests and the import bench: 20 clubs, and the README's 5,000-row
 * players file (about 200 KB of CSV), as CSV text and as the body of an import request.
 */

const POSITIONS = ["GK", "DEF", "DEF", "MID", "MID", "FWD"];

/** The clubs file the players file refers to: `club-1` … `club-20`. */
export function clubsCsv(count = 20): string {
  const lines = ["externalId,name,shortName,league,logoUrl"];
  for (let c = 1; c <= count; c++) lines.push(`club-${c},Club ${c},C${c},PREMIER_LEAGUE,`);
  return lines.join("\n") + "\n";
}

/**
 * A players file of `rows` rows over the 20 clubs, ids `${prefix}-1` …; `bump` adds to every
 * salary (a file that updates every row of an earlier one).
 */
export function playersCsv(rows = 5000, { prefix = "player", bump = 0 } = {}): string {
  const lines = ["externalId,name,position,club,salary,imageUrl"];
  for (let i = 1; i <= rows; i++) {
    const salary = 4000 + (i % 50) * 100 + bump;
    lines.push(`${prefix}-${i},Player ${i},${POSITIONS[i % 6]},club-${(i % 20) + 1},${salary},`);
  }
  return lines.join("\n") + "\n";
}

/** The body of `POST /api/admin/imports/{preview,apply}` for a CSV file. */
export function importBody(kind: string, content: string, fileName = `${kind}.csv`) {
  return { kind, format: "csv", fileName, content };
}
