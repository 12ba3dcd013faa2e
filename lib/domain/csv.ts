/**
 * The one CSV writer of every file the app sends (the import exports, the activity log, the
 * payouts), on csv-stringify: RFC 4180 quoting, CRLF line ends, a header row first, and every
 * text cell defused so that a spreadsheet opening the file never runs it as a formula.
 */
import { stringify } from "csv-stringify/sync";

/** A cell: text (defused), a number, or empty. */
export type CsvCell = string | number | null | undefined;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or CR before one) as a formula.
 * Such a cell is written with a ' before it (which spreadsheets show as text). A cell that
 * already starts with ' before one of them gets one more, so that `restoreCell` gives back
 * exactly what was written.
 */
const FORMULA = /^'*[=+\-@\t\r]/;

/** `text` as a cell no spreadsheet runs as a formula (see FORMULA). */
export function defuseCell(text: string): string {
  return FORMULA.test(text) ? `'${text}` : text;
}

/** The text a defused cell was made from: a file exported by the app imports back unchanged. */
export function restoreCell(text: string): string {
  return /^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/**
 * The CSV file of `rows` under the header `columns`; `quoteAll` quotes every data cell (for
 * readers that take a quoted cell as text), otherwise only those that need it.
 * @example toCsv(["name", "salary"], [["=HYPERLINK(\"x\")", 5000]]) // "name,salary\r\n\"'=HYPERLINK(\"\"x\"\")\",5000\r\n"
 */
export function toCsv(
  columns: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  { quoteAll = false }: { quoteAll?: boolean } = {},
): string {
  const options = { record_delimiter: "windows" as const };
  const cells = rows.map((row) =>
    row.map((cell) => typeof cell === "string" ? defuseCell(cell) : cell ?? "")
  );
  return stringify([[...columns]], options) +
    stringify(cells, { ...options, quoted: quoteAll, quoted_empty: quoteAll });
}
