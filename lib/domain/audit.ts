/** The admin activity log's record, and its changes in words (shared by the screens). */

/** One admin write as logged (lib/db/audit.ts). */
export interface AuditEntry {
  id: number;
  /** ISO time of the write. */
  at: string;
  /** The admin's username, or "system" for a change the app made by itself. */
  admin: string;
  /** What was done, in words ("Update competition"). */
  action: string;
  /** The request (`PUT /api/admin/competitions/5`), or the job that made the change. */
  request: string;
  competitionId: number | null;
  /** The changed fields as they were (null: created, or not known). */
  before: Record<string, unknown> | null;
  /** The changed fields as they became (null: deleted). */
  after: Record<string, unknown> | null;
  reason: string | null;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The changes of a record in words, one field a line: "status: UPCOMING → LIVE".
 * @example changesText({ before: { status: "UPCOMING" }, after: { status: "LIVE" } })
 */
export function changesText(e: Pick<AuditEntry, "before" | "after">): string {
  const fields = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])];
  if (e.before === null && e.after !== null) {
    return fields.map((f) => `${f}: ${valueText(e.after![f])}`).join("\n");
  }
  if (e.after === null && e.before !== null) return "deleted";
  return fields.map((f) => `${f}: ${valueText(e.before?.[f])} → ${valueText(e.after?.[f])}`)
    .join("\n");
}
