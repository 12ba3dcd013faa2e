/**
 * The one place admin writes are logged (lib/db/audit.ts): the admin API middleware wraps every
 * write in `withAdminAudit`, which reads the record the request changes before and after the
 * handler (competition, match, player, club, prizes, payout, a player's salary), keeps only the
 * changed fields, and appends who, when, what and the reason given. Writes without a record to
 * read log what was sent (creates: what was created).
 */
import { appendAudit, type AuditStamp, changedFields, stampRecorded } from "@/lib/db/audit.ts";
import { MAX_IMPORT_BYTES } from "@/lib/domain/schemas/imports.ts";
import { sha256Hex } from "@/lib/crypto/sealed.ts";
import { keys } from "@/lib/store/keys.ts";
import { listValues } from "@/lib/store/util.ts";
import { readBytes } from "./validate.ts";

/**
 * Requests that change no data: signing in and out, and an import's preview (a dry run that
 * writes nothing, so the log does not call it a write).
 */
const NOT_LOGGED = new Set(["/api/admin/login", "/api/admin/logout", "/api/admin/imports/preview"]);
/** The largest request body kept for the log (bigger: its size is logged instead). */
const MAX_LOGGED_BYTES = 64 * 1024;
/** The largest body an admin route takes (an import's file). */
const MAX_ADMIN_BODY_BYTES = MAX_IMPORT_BYTES;

type Snapshot = (kv: Deno.Kv, m: RegExpMatchArray) => Promise<unknown>;

const record = (key: (m: RegExpMatchArray) => Deno.KvKey): Snapshot => async (kv, m) =>
  (await kv.get(key(m))).value;

/** The record each kind of admin write changes, read before and after it. */
const RECORDS: [RegExp, Snapshot][] = [
  [/^\/api\/admin\/competitions\/(\d+)(?:\/cancel)?$/, record((m) => keys.competition(+m[1]))],
  [
    /^\/api\/admin\/competitions\/(\d+)\/players\/(\d+)$/,
    record((m) => keys.competitionPlayer(+m[1], +m[2])),
  ],
  [/^\/api\/admin\/competitions\/(\d+)\/prizes$/, async (kv, m) => ({
    prizes: (await listValues<{ position: number; prize: number }>(kv, keys.prizes(+m[1])))
      .map((p) => ({ position: p.position, prize: p.prize })),
  })],
  [/^\/api\/admin\/matches\/(\d+)$/, record((m) => keys.match(+m[1]))],
  [/^\/api\/admin\/players\/(\d+)$/, record((m) => keys.player(+m[1]))],
  [/^\/api\/admin\/teams\/(\d+)$/, record((m) => keys.team(+m[1]))],
  [/^\/api\/admin\/rounds\/(\d+)$/, record((m) => keys.round(+m[1]))],
  [/^\/api\/admin\/payouts\/(\d+)\/(\d+)\/paid$/, record((m) => keys.payout(+m[1], +m[2]))],
];

/** Creates: the answer (the record made) is what is logged. */
const CREATES =
  /^\/api\/admin\/(competitions|matches|rounds|players|teams|competitions\/\d+\/events)$/;

/** What each write does, in words, by method and path shape (numbers as ":id"). */
const ACTIONS: Record<string, string> = {
  "POST competitions": "Create competition",
  "PUT competitions/:id": "Update competition",
  "DELETE competitions/:id": "Delete competition",
  "POST competitions/:id/cancel": "Cancel competition",
  "POST competitions/:id/players": "Add players",
  "DELETE competitions/:id/players": "Remove players",
  "PATCH competitions/:id/players/:id": "Change salary",
  "POST competitions/:id/prizes": "Save prizes",
  "POST competitions/:id/performances": "Save performances",
  "POST competitions/:id/events": "Add game event",
  "DELETE competitions/:id/events/:id": "Delete game event",
  "POST matches": "Create match",
  "PUT matches/:id": "Update match",
  "DELETE matches/:id": "Delete match",
  "POST rounds": "Create round",
  "PUT rounds/:id": "Update round",
  "DELETE rounds/:id": "Delete round",
  "POST players": "Create player",
  "PATCH players/:id": "Update player",
  "DELETE players/:id": "Delete player",
  "POST teams": "Create club",
  "PUT teams/:id": "Update club",
  "DELETE teams/:id": "Delete club",
  "POST payouts/:id/:id/paid": "Record payout",
  "POST competitions/:id/entries/:team/refund": "Refund entry",
  "POST contests-from-templates": "Create contests from templates",
  "POST imports/apply": "Apply import",
  "POST imports/:id/resume": "Resume import",
  "POST feed/providers": "Add feed provider",
  "POST feed/providers/:name/rotate": "Rotate feed secret",
  "POST feed/providers/:name/retire": "Retire previous feed secret",
  "DELETE leagues/:id": "Remove league",
  "POST outbox/:id/resend": "Resend e-mail",
  "POST self-exclusions": "Import self-exclusion list",
  "POST 2fa/setup": "Start two-factor set-up",
  "POST 2fa/confirm": "Turn on two-factor",
  "POST 2fa/disable": "Turn off two-factor",
};

/** The action of a request in words ("Update competition"), else its method and path shape. */
export function actionOf(method: string, path: string): string {
  const shape = path.replace(/^\/api\/admin\/?/, "").replace(/\/\d+(?=\/|$)/g, "/:id")
    .replace(/\/entries\/[^/]+\/refund$/, "/entries/:team/refund")
    .replace(/^feed\/providers\/[^/]+\//, "feed/providers/:name/")
    .replace(/^leagues\/[^/]+$/, "leagues/:id");
  return ACTIONS[`${method} ${shape}`] ?? `${method} ${shape}`;
}

function competitionOf(path: string, created: unknown): number | null {
  const m = path.match(/^\/api\/admin\/(?:competitions|payouts)\/(\d+)/);
  if (m) return Number(m[1]);
  if (path === "/api/admin/competitions" && typeof created === "object" && created !== null) {
    const id = (created as { id?: unknown }).id;
    return typeof id === "number" ? id : null;
  }
  return null;
}

/**
 * The request's JSON body for the log (its text when not JSON, its size when too big), from the
 * one read of the body the handler shares (readBytes): under the largest body an admin route
 * takes, so the handler's own cap (and its 413) still decide. A body that cannot be read (too
 * large, too slow) is logged as nothing; the handler answers for it.
 */
async function bodyOf(req: Request): Promise<unknown> {
  if (!req.body) return null;
  const bytes = await readBytes(req, MAX_ADMIN_BODY_BYTES).catch(() => null);
  if (bytes === null || bytes.byteLength === 0) return null;
  if (bytes.byteLength > MAX_LOGGED_BYTES) return { body: `more than ${MAX_LOGGED_BYTES} bytes` };
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return { body: text };
  }
}

/** File contents longer than this are logged as a summary, not copied. */
const MAX_CONTENT_CHARS = 200;

/**
 * What the log keeps of a body that carries a file (an import's `content`): its name, rows and
 * SHA-256, not the file itself, which would copy every imported row into the activity log.
 */
export async function summariseFile(body: unknown): Promise<unknown> {
  if (typeof body !== "object" || body === null) return body;
  const { content, ...rest } = body as { content?: unknown };
  if (typeof content !== "string" || content.length <= MAX_CONTENT_CHARS) return body;
  const sha256 = await sha256Hex(content);
  const lines = content.split(/\r?\n/).filter((line) => line.trim() !== "").length;
  return { ...rest, file: { lines, characters: content.length, sha256 } };
}

async function answerOf(res: Response): Promise<unknown> {
  if (!(res.headers.get("content-type") ?? "").includes("json")) return null;
  return await res.clone().json().catch(() => null);
}

/**
 * Runs an admin API write (`next`) and, when it succeeded (status below 400), makes sure it is in
 * the activity log with the admin's name, the changed fields before → after and the `reason`
 * sent. `next` gets the request's AuditStamp: a write function that changes its record in one
 * atomic commit adds the record to that commit (`auditInto`), so the change and its record are
 * kept together; otherwise (a multi-commit job, a write not taking the stamp) the record is
 * appended here, right after the handler. Reads (GET, HEAD, OPTIONS), signing in and out, and
 * refused writes are not logged.
 */
export async function withAdminAudit(
  kv: Deno.Kv,
  req: Request,
  admin: string,
  next: (stamp?: AuditStamp) => Promise<Response>,
): Promise<Response> {
  const path = new URL(req.url).pathname.replace(/\/$/, "");
  if (["GET", "HEAD", "OPTIONS"].includes(req.method) || NOT_LOGGED.has(path)) return next();
  const found = RECORDS.map(([re, read]) => [path.match(re), read] as const).find(([m]) => m);
  const body = await summariseFile(await bodyOf(req));
  const reason = typeof body === "object" && body !== null &&
      typeof (body as { reason?: unknown }).reason === "string"
    ? (body as { reason: string }).reason
    : null;
  const stamp: AuditStamp = {
    admin,
    request: `${req.method} ${path}`,
    action: actionOf(req.method, path),
    reason,
    ids: [],
  };
  const before = found ? await found[1](kv, found[0]!) : null;
  const res = await next(stamp);
  if (res.status >= 400 || await stampRecorded(kv, stamp)) return res;
  let after: unknown;
  let changes;
  if (found) {
    after = await found[1](kv, found[0]!);
    changes = changedFields(before, after);
  } else {
    after = CREATES.test(path) && req.method === "POST" ? await answerOf(res) : body;
    changes = req.method === "DELETE" && !after
      ? { before: { deleted: path }, after: null }
      : changedFields(null, after);
  }
  const statusChanged = changes.before?.status !== undefined && changes.after?.status !== undefined;
  await appendAudit(kv, {
    admin,
    action: statusChanged ? "Change status" : stamp.action,
    request: stamp.request,
    competitionId: competitionOf(path, after),
    before: changes.before,
    after: changes.after,
    reason,
  });
  return res;
}

/** The request's AuditStamp (set by the admin API middleware), for its write functions. */
export function auditStampOf(state: object): AuditStamp | undefined {
  return (state as { audit?: AuditStamp }).audit;
}
