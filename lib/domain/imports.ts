/**
 * What the import screens and the import API share: the kinds and formats of files, a preview of
 * their rows, and an import as its history shows it (see lib/db/imports.ts).
 */

export const IMPORT_FORMATS = ["csv", "json"] as const;
export type ImportFormat = typeof IMPORT_FORMATS[number];

export const IMPORT_KINDS = ["clubs", "players", "matches", "competition-players"] as const;
export type ImportKind = typeof IMPORT_KINDS[number];

/** A file sent to preview or apply. */
export interface ImportRequest {
  kind: ImportKind;
  format: ImportFormat;
  /** For `competition-players`: whose list. */
  competitionId?: number | null;
  fileName: string;
  content: string;
}

export type RowAction = "create" | "update" | "unchanged" | "error";

/** One row of the preview (row 1 is the first row after a CSV's header). */
export interface PreviewRow {
  row: number;
  /** The row's external id (or player reference). */
  ref: string;
  action: RowAction;
  /** For updates: the columns that change. */
  changes: string[];
  errors: { field: string; reason: string }[];
  note: string | null;
}

export interface ImportPreview {
  kind: ImportKind;
  rows: PreviewRow[];
  counts: Record<RowAction, number>;
}

/** UNDOING: a chunk failed, and the chunks already applied are being undone (then FAILED). */
export type ImportStatus = "APPLYING" | "UNDOING" | "APPLIED" | "FAILED";

/** An import as its history shows it. */
export interface ImportJob {
  id: number;
  kind: ImportKind;
  format: ImportFormat;
  competitionId: number | null;
  fileName: string;
  admin: string;
  createdAt: string;
  finishedAt: string | null;
  status: ImportStatus;
  rows: number;
  counts: Record<RowAction, number>;
  chunks: number;
  chunksDone: number;
  /** Rows per chunk (90 when absent: imports staged before it was kept). */
  chunkRows?: number;
  error: string | null;
}
