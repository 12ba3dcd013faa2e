/**
 * The admin activity log: every admin write (who, when, what, the fields before → after, and
 * the reason given) as one append-only record `["audit", id]` under a time-ordered id, indexed
 * by competition (`["audit_by_competition", cid, id]`). Records are only ever added: nothing
 * here updates or deletes one. Secrets (password hashes, sealed details, tokens) never enter it.
 */
import { type AuditEntry, changesText } from "@/lib/domain/audit.ts";
import { toCsv } from "@/lib/domain/csv.ts";
import { timeOrderedId } from "@/lib/store/ids.ts";
import { keys } from "@/lib/store/keys.ts";
import { getManyValues } from "@/lib/store/util.ts";

export type { AuditEntry };

export type AuditInput = Omit<AuditEntry, "id" | "at"> & { at?: Date };

/** Fields never logged, wherever they appear. */
const SECRET_FIELDS = new Set([
  "password",
  "passwordHash",
  "salt",
  "code",
  "secret",
  "sealedDetails",
  "tokenHash",
  "editToken",
  "recoveryCodes",
]);

/** The longest logged text of one value (a bigger value is cut and says so). */
const MAX_VALUE_CHARS = 2_000;

/** A value as it is logged: secrets dropped at any depth, long texts cut. */
function loggable(value: unknown): unknown {
  if (Array.isArray(value)) {
    const text = JSON.stringify(value);
    if (text.length > MAX_VALUE_CHARS) return `${value.length} items`;
    return value.map(loggable);
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).filter(([k]) => !SECRET_FIELDS.has(k)).map(([k, v]) => [
        k,
        loggable(v),
      ]),
    );
  }
  if (typeof value === "string" && value.length > MAX_VALUE_CHARS) {
    return `${value.slice(0, MAX_VALUE_CHARS)}…`;
  }
  return value;
}

/**
 * The fields that differ between two records: `before` and `after` hold only those (a whole
 * record when the other side is null: created or deleted).
 * @example changedFields({ a: 1, b: 2 }, { a: 1, b: 3 }) // { before: { b: 2 }, after: { b: 3 } }
 */
export function changedFields(
  before: unknown,
  after: unknown,
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const asRecord = (v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? loggable(v) as Record<string, unknown>
      : v === null || v === undefined
      ? null
      : { value: loggable(v) };
  const b = asRecord(before);
  const a = asRecord(after);
  if (!b || !a) return { before: b, after: a };
  const changed = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) =>
    JSON.stringify(b[k]) !== JSON.stringify(a[k])
  );
  const pick = (r: Record<string, unknown>) =>
    Object.fromEntries(changed.map((k) => [k, r[k] === undefined ? null : r[k]]));
  return { before: pick(b), after: pick(a) };
}

/** The record of `input` under `id`, as it is stored (secrets dropped, long texts cut). */
function auditRecord(id: number, at: Date, input: AuditInput): AuditEntry {
  return {
    id,
    at: at.toISOString(),
    admin: input.admin,
    action: input.action,
    request: input.request,
    competitionId: input.competitionId,
    before: input.before === null ? null : loggable(input.before) as Record<string, unknown>,
    after: input.after === null ? null : loggable(input.after) as Record<string, unknown>,
    reason: input.reason,
  };
}

/** Adds the writes of `entry` (and of its competition's index) to `op`, each id written once. */
function setAudit(op: Deno.AtomicOperation, entry: AuditEntry): Deno.AtomicOperation {
  op.check({ key: keys.audit(entry.id), versionstamp: null }).set(keys.audit(entry.id), entry);
  if (entry.competitionId !== null) {
    const byCompetition = keys.auditByCompetition(entry.competitionId, entry.id);
    op.check({ key: byCompetition, versionstamp: null }).set(byCompetition, entry.id);
  }
  return op;
}

/**
 * Appends one record to the activity log (and to its competition's list) and returns it. Never
 * overwrites: each id is written with a `versionstamp: null` check.
 * @example await appendAudit(kv, { admin: "admin", action: "Cancel competition", … });
 */
export async function appendAudit(kv: Deno.Kv, input: AuditInput): Promise<AuditEntry> {
  const at = input.at ?? new Date();
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = auditRecord(timeOrderedId(at.getTime()), at, input);
    if ((await setAudit(kv.atomic(), entry).commit()).ok) return entry;
  }
  throw new Error("The activity log could not be written");
}

/**
 * What an admin request lets its write functions add to the atomic commit of their change, so
 * the change and its activity record are kept together or not at all (lib/http/admin_audit.ts
 * makes one per request; a write function takes it as an optional `audit` argument).
 */
export interface AuditStamp {
  admin: string;
  /** `POST /api/admin/…`. */
  request: string;
  /** The request in words ("Update competition"). */
  action: string;
  reason: string | null;
  /** The ids of the records added to commits so far: the one whose commit went through is kept. */
  readonly ids: number[];
}

/**
 * Adds to `op` the activity record of the request `stamp` stands for: the fields of the record
 * that differ between `before` and `after` ("Change status" when a competition's status changes). Nothing
 * without a stamp (a change not made by an admin request).
 * @example auditInto(op, audit, { competitionId: 7, before: competition, after: saved })
 */
export function auditInto(
  op: Deno.AtomicOperation,
  stamp: AuditStamp | undefined,
  change: { competitionId: number | null; before: unknown; after: unknown; at?: Date },
): void {
  if (!stamp) return;
  const at = change.at ?? new Date();
  const changes = changedFields(change.before, change.after);
  // A competition's status is what an admin changes; a payout's follows its own action.
  const statusChanged = changes.before?.status !== undefined &&
    changes.after?.status !== undefined && /\/competitions\/\d+(\/cancel)?$/.test(stamp.request);
  const entry = auditRecord(timeOrderedId(at.getTime()), at, {
    admin: stamp.admin,
    action: statusChanged ? "Change status" : stamp.action,
    request: stamp.request,
    competitionId: change.competitionId,
    before: changes.before,
    after: changes.after,
    reason: stamp.reason,
  });
  stamp.ids.push(entry.id);
  setAudit(op, entry);
}

/** Whether one of the records added with `stamp` was committed (its change went through). */
export async function stampRecorded(kv: Deno.Kv, stamp: AuditStamp): Promise<boolean> {
  if (stamp.ids.length === 0) return false;
  return (await getManyValues(kv, stamp.ids.map(keys.audit))).length > 0;
}

/** What the Activity screen filters by; every field optional. */
export interface AuditFilter {
  competitionId?: number | null;
  admin?: string | null;
  action?: string | null;
  /** ISO times, inclusive. */
  from?: string | null;
  to?: string | null;
  /** Most records returned (newest first). */
  limit?: number;
}

/** The most records one listing returns. */
export const AUDIT_LIMIT = 500;
/** The most records one listing reads while filtering by admin or action. */
const SCAN_LIMIT = 20_000;

/**
 * The activity log, newest first, filtered: by competition through its index, by time through
 * the key range (ids are ordered by time), by admin and action as read. At most `limit` records.
 */
export async function listAudit(kv: Deno.Kv, filter: AuditFilter = {}): Promise<AuditEntry[]> {
  const limit = Math.min(filter.limit ?? AUDIT_LIMIT, AUDIT_LIMIT);
  const fromMs = filter.from ? Date.parse(filter.from) : NaN;
  const toMs = filter.to ? Date.parse(filter.to) : NaN;
  const matches = (e: AuditEntry) =>
    (!filter.admin || e.admin === filter.admin) &&
    (!filter.action || e.action === filter.action) &&
    (Number.isNaN(fromMs) || Date.parse(e.at) >= fromMs) &&
    (Number.isNaN(toMs) || Date.parse(e.at) <= toMs);
  const out: AuditEntry[] = [];
  if (filter.competitionId) {
    const ids: number[] = [];
    const iter = kv.list<number>(
      { prefix: keys.auditsByCompetition(filter.competitionId) },
      { reverse: true, limit: SCAN_LIMIT },
    );
    for await (const e of iter) ids.push(e.value);
    for (let i = 0; i < ids.length && out.length < limit; i += 10) {
      const found = await getManyValues<AuditEntry>(kv, ids.slice(i, i + 10).map(keys.audit));
      out.push(...found.filter(matches));
    }
    return out.slice(0, limit);
  }
  const selector: Deno.KvListSelector = Number.isNaN(fromMs) && Number.isNaN(toMs)
    ? { prefix: keys.audits() }
    : {
      start: keys.audit(Number.isNaN(fromMs) ? 0 : fromMs * 1024),
      end: keys.audit(Number.isNaN(toMs) ? Number.MAX_SAFE_INTEGER : (toMs + 1) * 1024),
    };
  for await (const e of kv.list<AuditEntry>(selector, { reverse: true, limit: SCAN_LIMIT })) {
    if (matches(e.value)) out.push(e.value);
    if (out.length >= limit) break;
  }
  return out;
}

/** The admins and actions found in the log's newest records, for the filter's choices. */
export async function auditChoices(kv: Deno.Kv): Promise<{ admins: string[]; actions: string[] }> {
  const admins = new Set<string>();
  const actions = new Set<string>();
  const iter = kv.list<AuditEntry>({ prefix: keys.audits() }, { reverse: true, limit: 2_000 });
  for await (const e of iter) {
    admins.add(e.value.admin);
    actions.add(e.value.action);
  }
  return { admins: [...admins].sort(), actions: [...actions].sort() };
}

/** The log as CSV: one line per record, the changes as `field: before → after`. */
export function auditCsv(entries: AuditEntry[]): string {
  const head = ["time", "admin", "action", "competition", "changes", "reason", "request"];
  return toCsv(
    head,
    entries.map((e) => [
      e.at,
      e.admin,
      e.action,
      e.competitionId,
      changesText(e),
      e.reason,
      e.request,
    ]),
  );
}

/**
 * The Activity screen's filter from its address (`?competitionId=5&admin=ann&action=…&from=
 * 2026-11-01&to=2026-11-30`); unreadable values are ignored. `to` as a date means its whole day.
 */
export function parseAuditFilter(params: URLSearchParams): AuditFilter {
  const text = (name: string) => params.get(name)?.trim().slice(0, 200) || null;
  const cid = Number(params.get("competitionId"));
  const day = (name: string, end: boolean) => {
    const raw = text(name);
    if (!raw) return null;
    const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
    if (Number.isNaN(date.getTime())) return null;
    if (end && /^\d{4}-\d{2}-\d{2}$/.test(raw)) date.setUTCHours(23, 59, 59, 999);
    return date.toISOString();
  };
  return {
    competitionId: Number.isSafeInteger(cid) && cid > 0 ? cid : null,
    admin: text("admin"),
    action: text("action"),
    from: day("from", false),
    to: day("to", true),
  };
}
