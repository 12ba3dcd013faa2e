/**
 * The two file formats of imports and exports: CSV (a header row of column names, then one row per
 * record; csv-parse, and the app's one CSV writer with its formula defusing, lib/domain/csv.ts) and JSON (an array of objects with the same names). An
 * exported file imports back as it is, and exporting again gives the same bytes.
 */
import { parse } from "csv-parse/sync";
import { restoreCell, toCsv } from "@/lib/domain/csv.ts";
import { InvalidInputError } from "@/lib/domain/errors.ts";

import type { ImportFormat } from "@/lib/domain/imports.ts";

/** A cell of an exported row: text, a number, or empty (null). */
export type Cell = string | number | null;
export type Row = Record<string, Cell>;

/**
 * The rows of a file, each cell as text ("" when empty or null). InvalidInputError (field
 * `content`) when the file does not parse or its columns are not `columns` (extra ones refused).
 */
export function readRows(
  content: string,
  format: ImportFormat,
  columns: readonly string[],
): Record<string, string>[] {
  let rows: Record<string, unknown>[];
  try {
    if (format === "json") {
      const data = JSON.parse(content);
      if (!Array.isArray(data) || data.some((r) => typeof r !== "object" || r === null)) {
        throw new Error("A JSON import is an array of objects, one per row");
      }
      rows = data;
    } else {
      // Cells defused on export (a formula behind a ') read back as they were.
      rows = parse(content, {
        columns: true,
        bom: true,
        skip_empty_lines: true,
        cast: (value) => restoreCell(value),
      });
    }
  } catch (err) {
    throw new InvalidInputError(`The file could not be read: ${(err as Error).message}`, [
      { path: ["content"], message: (err as Error).message },
    ]);
  }
  const allowed = new Set(columns);
  const unknown = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => !allowed.has(c));
  if (unknown.length > 0) {
    const message = `Unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: ` +
      `the columns are ${columns.join(", ")}`;
    throw new InvalidInputError(message, [{ path: ["content"], message }]);
  }
  return rows.map((r) =>
    Object.fromEntries(
      columns.map((c) => [c, r[c] === null || r[c] === undefined ? "" : text(r[c])]),
    )
  );
}

function text(value: unknown): string {
  return typeof value === "string"
    ? value
    : typeof value === "object"
    ? JSON.stringify(value)
    : String(value);
}

/** The file of `rows` in `format` (columns in the given order). */
export function writeRows(rows: Row[], format: ImportFormat, columns: readonly string[]): string {
  if (format === "json") {
    const ordered = rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
    return JSON.stringify(ordered, null, 2) + "\n";
  }
  return toCsv(columns, rows.map((r) => columns.map((c) => r[c])));
}
