/**
 * A regulator's self-exclusion file (CSV: `email,until`) taken into the exclusions of
 * lib/db/persons.ts. The whole file is checked first: one bad row refuses the file and
 * changes nothing, naming the row and why.
 */
import { readRows } from "@/lib/imports/format.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";
import { personOf } from "@/lib/domain/paid_entry.ts";
import { isKeyText } from "@/lib/store/keys.ts";
import { excludePerson } from "./persons.ts";

export const EXCLUSION_COLUMNS = ["email", "until"] as const;
/** Rows one file may hold (a state list is thousands, not millions). */
export const MAX_EXCLUSION_ROWS = 50_000;

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** What an import did: rows taken, and how many of those were already excluded for longer. */
export interface ExclusionImport {
  rows: number;
  excluded: number;
  kept: number;
}

/** The rows of the file as persons and end times; InvalidInputError for the first bad row. */
export function parseExclusionFile(content: string): { person: string; until: string }[] {
  const rows = readRows(content, "csv", EXCLUSION_COLUMNS);
  if (rows.length > MAX_EXCLUSION_ROWS) {
    throw new InvalidInputError(`At most ${MAX_EXCLUSION_ROWS} rows in one file`, [
      { path: ["content"], message: `At most ${MAX_EXCLUSION_ROWS} rows in one file` },
    ]);
  }
  return rows.map((row, i) => {
    const bad = (field: string, message: string) => {
      const text = `Row ${i + 2}: ${message}`;
      return new InvalidInputError(text, [{ path: ["content", i, field], message: text }]);
    };
    const email = row.email.trim();
    const person = personOf(email);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || !isKeyText(person)) {
      throw bad("email", `email "${email.slice(0, 80)}" is not an e-mail address`);
    }
    const until = row.until.trim();
    // A date alone ends at the end of that day (UTC): the list says "until" that day.
    const at = Date.parse(until.length === 10 ? `${until}T23:59:59Z` : until);
    if (!DATE.test(until) || Number.isNaN(at)) {
      throw bad("until", `until "${until.slice(0, 40)}" is not a date like 2027-05-31`);
    }
    return { person, until: new Date(at).toISOString() };
  });
}

/** Takes a regulator's CSV into the exclusions (none shortened). */
export async function importExclusions(
  kv: Deno.Kv,
  content: string,
  now = new Date(),
): Promise<ExclusionImport> {
  const rows = parseExclusionFile(content);
  let kept = 0;
  for (const { person, until } of rows) {
    const result = await excludePerson(kv, person, until, "regulator", now);
    if (result.until !== until) kept++;
  }
  return { rows: rows.length, excluded: rows.length - kept, kept };
}
