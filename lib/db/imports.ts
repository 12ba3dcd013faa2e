/**
 * Bulk import and export of clubs, players, matches and a competition's player list (with its
 * salaries), from and to CSV or JSON (lib/imports/format.ts).
 *
 * - `previewImport` is a dry run: every row as create / update / unchanged / error (with the
 *   field and the reason). Rows are matched to records by `externalId` (`#12` names the record
 *   with id 12, for records made by hand), so running a file twice changes nothing the second time.
 * - `applyImport` is all or nothing per file, with a staged, resumable apply: a file with any
 *   error row is refused whole; otherwise its checked rows are staged in chunks, then the import's
 *   record (`["imports", id]`, status APPLYING) is written as the commit marker, and the chunks are
 *   applied one atomic each (≤ 90 rows: under KV's 100 checks, 1,000 mutations, 800 KB), each atomic
 *   also moving the record's `chunksDone`. A crash leaves the import APPLYING with its progress;
 *   `resumeImport` (the Import page's Resume) rolls it forward from the next chunk, and no chunk
 *   is ever applied twice.
 * - A competition's salaries never change for players already in its paid entries (such rows
 *   stay unchanged, with a note).
 * - `exportRows` writes the same columns, so an export re-imports as all unchanged, and exporting
 *   again gives the same bytes.
 */
import * as z from "zod/mini";
import { matchOutcome, matchProblems } from "@/lib/domain/match_result.ts";
import {
  ConflictError,
  fieldError,
  InvalidInputError,
  NotFoundError,
} from "@/lib/domain/errors.ts";
import {
  competitionSalarySchema,
  matchInputSchema,
  playerInputSchema,
  teamInputSchema,
} from "@/lib/domain/schemas/catalog.ts";
import { zodIssues } from "@/lib/domain/schemas/fields.ts";
import {
  type Competition,
  type Entry,
  LEAGUES,
  type Match,
  type Player,
  POSITIONS,
  type Team,
} from "@/lib/domain/types.ts";
import { type Cell, readRows, type Row, writeRows } from "@/lib/imports/format.ts";
import type {
  ImportFormat,
  ImportJob,
  ImportKind,
  ImportPreview,
  ImportRequest,
  PreviewRow,
  RowAction,
} from "@/lib/domain/imports.ts";

export type { ImportJob, ImportKind, ImportPreview, ImportRequest, PreviewRow, RowAction };
import { bumpCatalog } from "@/lib/store/catalog.ts";
import { reserveIds, timeOrderedId } from "@/lib/store/ids.ts";
import { type IdEntity, keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { chunk, getManyEntries, getManyValues, listValues } from "@/lib/store/util.ts";

/** The columns of each kind, in file order. */
export const IMPORT_COLUMNS: Record<ImportKind, readonly string[]> = {
  clubs: ["externalId", "name", "shortName", "league", "logoUrl"],
  players: ["externalId", "name", "position", "club", "salary", "imageUrl"],
  matches: [
    "externalId",
    "homeClub",
    "awayClub",
    "league",
    "kickoffTime",
    "stadium",
    "homeScore",
    "awayScore",
  ],
  "competition-players": ["player", "salary"],
};

/**
 * Rows per staged chunk and per apply atomic, by kind: each row writes ≤ 5 mutations (with its
 * undo record, ≤ 10) and checks its own record and the ≤ 2 records it refers to, under KV's
 * 1,000 mutations and 100 checks per atomic (with the import's own record and the id counter).
 */
const CHUNK_ROWS: Record<ImportKind, number> = {
  clubs: 90,
  players: 45,
  matches: 30,
  "competition-players": 45,
};
/** The chunk size of imports staged before it was kept in their record. */
const LEGACY_CHUNK_ROWS = 90;
/** Overwritten values per undo record (a KV value holds at most 64 KiB). */
const UNDO_PART_STEPS = 40;

/** One key a chunk wrote, and what it held before (null: nothing). */
interface UndoStep {
  key: Deno.KvKey;
  before: unknown;
}

/** A mutation of a chunk, recorded before the chunk's atomic is built (see recordWrites). */
type Mutation =
  | { type: "check"; check: Deno.AtomicCheck }
  | { type: "set"; key: Deno.KvKey; value: unknown }
  | { type: "delete"; key: Deno.KvKey };

/**
 * Runs `write` against a stand-in for an atomic operation that only records what it is asked
 * to do (check, set, delete), so the chunk's atomic can also keep what those keys held.
 */
function recordWrites(write: (op: Deno.AtomicOperation) => void): Mutation[] {
  const mutations: Mutation[] = [];
  const recorder = {
    check(...checks: Deno.AtomicCheck[]) {
      for (const check of checks) mutations.push({ type: "check", check });
      return recorder;
    },
    set(key: Deno.KvKey, value: unknown) {
      mutations.push({ type: "set", key, value });
      return recorder;
    },
    delete(key: Deno.KvKey) {
      mutations.push({ type: "delete", key });
      return recorder;
    },
  };
  write(recorder as unknown as Deno.AtomicOperation);
  return mutations;
}

type Entity = "teams" | "players" | "matches";

/** What a row check needs: the records its references resolve to, read once for the file. */
interface Context {
  kind: ImportKind;
  cid: number | null;
  /** Record ids by external reference ("#12" or an external id), per entity. */
  ids: Record<Entity, Map<string, number>>;
  teams: Map<number, Team>;
  players: Map<number, Player>;
  matches: Map<number, Match>;
  /** competition-players: the current links and the players in paid entries. */
  links: Map<number, { entry: Deno.KvEntryMaybe<unknown>; salary: number | null }>;
  paid: Set<number>;
  /** The entries of the records read, by "entity:id" (their versionstamps guard updates). */
  versions: Map<string, Deno.AtomicCheck>;
}

/** A checked row: the record it would write (null for unchanged) and its preview. */
interface Checked {
  preview: PreviewRow;
  write: ((op: Deno.AtomicOperation, newId: () => number) => void) | null;
  /** The entity whose id counter a create takes from. */
  creates: Entity | null;
}

const ENTITY_OF: Record<Exclude<ImportKind, "competition-players">, Entity> = {
  clubs: "teams",
  players: "players",
  matches: "matches",
};

const refOf = (record: { id: number; externalId?: string | null }) =>
  record.externalId || `#${record.id}`;

/** The exported row of each kind's record. */
function clubRow(team: Team): Row {
  return {
    externalId: refOf(team),
    name: team.name,
    shortName: team.shortName,
    league: team.league,
    logoUrl: team.logoUrl,
  };
}

function playerRow(player: Player, teams: Map<number, Team>): Row {
  const team = teams.get(player.teamId);
  return {
    externalId: refOf(player),
    name: player.name,
    position: player.position,
    club: team ? refOf(team) : `#${player.teamId}`,
    salary: player.salary,
    imageUrl: player.imageUrl,
  };
}

function matchRow(match: Match, teams: Map<number, Team>): Row {
  const ref = (id: number) => (teams.get(id) ? refOf(teams.get(id)!) : `#${id}`);
  return {
    externalId: refOf(match),
    homeClub: ref(match.homeTeamId),
    awayClub: ref(match.awayTeamId),
    league: match.league,
    kickoffTime: match.kickoffTime,
    stadium: match.stadium,
    homeScore: match.homeScore,
    awayScore: match.awayScore,
  };
}

function salaryRow(player: Player, salary: number): Row {
  return { player: refOf(player), salary };
}

const same = (a: Cell, b: Cell) => (a ?? null) === (b ?? null);

function changedColumns(before: Row, after: Row): string[] {
  return Object.keys(after).filter((c) => !same(before[c], after[c]));
}

/** Resolves a reference: "#12" is the record with id 12, anything else an external id. */
function lookup(ctx: Context, entity: Entity, ref: string): number | null {
  return ctx.ids[entity].get(ref) ?? null;
}

const blank = (v: string) => (v.trim() === "" ? undefined : v);

/** What an enum column accepts, said plainly (the form schemas' messages speak of the form). */
const CHOICES: Record<string, readonly string[]> = { position: POSITIONS, league: LEAGUES };

function issuesToErrors(
  issues: { path: (string | number)[]; message: string }[],
  rename: Record<string, string> = {},
): { field: string; reason: string }[] {
  return issues.map((i) => {
    const field = String(i.path[0] ?? "row");
    const choices = CHOICES[field];
    const reason = choices ? `Must be one of ${choices.join(", ")}` : i.message;
    return { field: rename[field] ?? field, reason };
  });
}

function parseRow<S extends z.ZodMiniType>(schema: S, value: unknown) {
  const result = schema.safeParse(value);
  return result.success
    ? { data: result.data as z.output<S>, issues: [] }
    : { data: null, issues: zodIssues(result.error) };
}

/** Checks one row of the file against the context (see the module comment). */
function checkRow(ctx: Context, raw: Record<string, string>, row: number): Checked {
  const ref = ctx.kind === "competition-players" ? raw.player : raw.externalId;
  const preview: PreviewRow = { row, ref, action: "error", changes: [], errors: [], note: null };
  const fail = (field: string, reason: string): Checked => {
    preview.errors.push({ field, reason });
    return { preview, write: null, creates: null };
  };
  if (!ref?.trim()) {
    return fail(ctx.kind === "competition-players" ? "player" : "externalId", "Required");
  }
  if (ref !== ref.trim()) return fail("externalId", "No spaces around the id");
  if (ctx.kind === "competition-players") return checkSalaryRow(ctx, raw, preview);
  const entity = ENTITY_OF[ctx.kind];
  const id = lookup(ctx, entity, ref);
  if (id === null && ref.startsWith("#")) {
    return fail("externalId", `${ref} does not exist (ids starting with # name existing records)`);
  }
  const externalId = ref.startsWith("#") ? undefined : ref;
  const settle = <T extends { id: number }>(
    existing: T | undefined,
    before: Row | null,
    after: (id: number) => { record: T; row: Row },
    write: (op: Deno.AtomicOperation, record: T, existing: T | undefined) => void,
  ): Checked => {
    if (existing && before) {
      const { record, row: next } = after(existing.id);
      preview.changes = changedColumns(before, next);
      preview.action = preview.changes.length === 0 ? "unchanged" : "update";
      if (preview.action === "unchanged") return { preview, write: null, creates: null };
      return { preview, write: (op) => write(op, record, existing), creates: null };
    }
    preview.action = "create";
    return {
      preview,
      write: (op, newId) => write(op, after(newId()).record, undefined),
      creates: entity,
    };
  };

  if (ctx.kind === "clubs") {
    const { data, issues } = parseRow(teamInputSchema, {
      name: raw.name,
      shortName: raw.shortName,
      league: blank(raw.league),
      logoUrl: blank(raw.logoUrl),
    });
    if (!data) {
      preview.errors = issuesToErrors(issues);
      return { preview, write: null, creates: null };
    }
    const existing = id === null ? undefined : ctx.teams.get(id);
    return settle<Team>(
      existing,
      existing ? clubRow(existing) : null,
      (newId) => {
        const record: Team = {
          ...existing,
          id: newId,
          name: data.name,
          shortName: data.shortName,
          league: data.league,
          logoUrl: data.logoUrl ?? null,
          ...(externalId ? { externalId } : {}),
        };
        return { record, row: clubRow(record) };
      },
      (op, record, before) => {
        if (before) op.check(versioned(ctx, "teams", record.id));
        op.set(keys.team(record.id), record);
        if (externalId) op.set(keys.externalId("teams", externalId), record.id);
      },
    );
  }

  if (ctx.kind === "players") {
    const teamId = lookup(ctx, "teams", raw.club);
    const { data, issues } = parseRow(playerInputSchema, {
      name: raw.name,
      position: blank(raw.position),
      teamId: teamId ?? (raw.club.trim() ? 0 : undefined),
      salary: blank(raw.salary),
      imageUrl: blank(raw.imageUrl),
    });
    const errors = issuesToErrors(issues, { teamId: "club" }).filter((e) => e.field !== "club");
    if (teamId === null) {
      errors.push({
        field: "club",
        reason: raw.club.trim() ? `Club ${raw.club} does not exist` : "Club is required",
      });
    }
    if (!data || errors.length > 0) {
      preview.errors = errors;
      return { preview, write: null, creates: null };
    }
    const existing = id === null ? undefined : ctx.players.get(id);
    return settle<Player>(
      existing,
      existing ? playerRow(existing, ctx.teams) : null,
      (newId) => {
        const record: Player = {
          goals: 0,
          assists: 0,
          cleanSheets: 0,
          ...existing,
          id: newId,
          name: data.name,
          position: data.position,
          teamId: teamId!,
          salary: data.salary,
          imageUrl: data.imageUrl ?? null,
          ...(externalId ? { externalId } : {}),
        };
        return { record, row: playerRow(record, ctx.teams) };
      },
      (op, record, before) => {
        if (before) {
          op.check(versioned(ctx, "players", record.id));
          if (before.teamId !== record.teamId) {
            op.delete(keys.playerByTeam(before.teamId, record.id));
          }
        }
        op.set(keys.player(record.id), record).set(
          keys.playerByTeam(record.teamId, record.id),
          record.id,
        );
        if (externalId) op.set(keys.externalId("players", externalId), record.id);
      },
    );
  }

  // matches
  const homeTeamId = lookup(ctx, "teams", raw.homeClub);
  const awayTeamId = lookup(ctx, "teams", raw.awayClub);
  const { data, issues } = parseRow(matchInputSchema, {
    homeTeamId: homeTeamId ?? (raw.homeClub.trim() ? -1 : undefined),
    awayTeamId: awayTeamId ?? (raw.awayClub.trim() ? -2 : undefined),
    league: blank(raw.league),
    kickoffTime: blank(raw.kickoffTime),
    stadium: raw.stadium,
    homeScore: blank(raw.homeScore),
    awayScore: blank(raw.awayScore),
  });
  const rename = { homeTeamId: "homeClub", awayTeamId: "awayClub" };
  const errors = issuesToErrors(issues, rename).filter((e) =>
    !(e.field === "homeClub" && homeTeamId === null) &&
    !(e.field === "awayClub" && awayTeamId === null)
  );
  for (const [field, found] of [["homeClub", homeTeamId], ["awayClub", awayTeamId]] as const) {
    if (found === null) {
      const value = raw[field];
      errors.push({ field, reason: value.trim() ? `Club ${value} does not exist` : "Required" });
    }
  }
  if (data && errors.length === 0) {
    const problems = matchProblems(
      data,
      ctx.teams.get(homeTeamId!)!,
      ctx.teams.get(awayTeamId!)!,
      new Date(),
    );
    for (const p of problems) {
      errors.push({ field: rename[p.field as "homeTeamId"] ?? p.field, reason: p.message });
    }
  }
  if (!data || errors.length > 0) {
    preview.errors = errors;
    return { preview, write: null, creates: null };
  }
  const existing = id === null ? undefined : ctx.matches.get(id);
  return settle<Match>(
    existing,
    existing ? matchRow(existing, ctx.teams) : null,
    (newId) => {
      const homeScore = data.homeScore ?? null;
      const awayScore = data.awayScore ?? null;
      const record: Match = {
        createdAt: new Date().toISOString(),
        ...existing,
        id: newId,
        homeTeamId: homeTeamId!,
        awayTeamId: awayTeamId!,
        league: data.league,
        kickoffTime: data.kickoffTime,
        stadium: data.stadium,
        ...matchOutcome(homeScore, awayScore),
        // A match under way keeps the live status its events gave it until a result is saved.
        ...(existing?.status === "LIVE" && homeScore === null ? { status: "LIVE" as const } : {}),
        homeScore,
        awayScore,
        ...(externalId ? { externalId } : {}),
      };
      return { record, row: matchRow(record, ctx.teams) };
    },
    (op, record, before) => {
      if (before) op.check(versioned(ctx, "matches", record.id));
      op.set(keys.match(record.id), record);
      if (externalId) op.set(keys.externalId("matches", externalId), record.id);
    },
  );
}

function checkSalaryRow(ctx: Context, raw: Record<string, string>, preview: PreviewRow): Checked {
  const playerId = lookup(ctx, "players", raw.player);
  const player = playerId === null ? undefined : ctx.players.get(playerId);
  const { data, issues } = parseRow(competitionSalarySchema, { salary: blank(raw.salary) });
  preview.errors = issuesToErrors(issues);
  if (!player) {
    preview.errors.unshift({ field: "player", reason: `Player ${raw.player} does not exist` });
  }
  if (!data || !player) return { preview, write: null, creates: null };
  const link = ctx.links.get(player.id);
  const cid = ctx.cid!;
  if (link && link.salary === data.salary) {
    preview.action = "unchanged";
    return { preview, write: null, creates: null };
  }
  if (link && ctx.paid.has(player.id)) {
    preview.action = "unchanged";
    preview.note = `Salary kept at ${link.salary}: the player is in paid entries`;
    return { preview, write: null, creates: null };
  }
  preview.action = link ? "update" : "create";
  preview.changes = link ? ["salary"] : [];
  return {
    preview,
    creates: null,
    write: (op) => {
      const key = keys.competitionPlayer(cid, player.id);
      op.check(link ? link.entry : { key, versionstamp: null })
        .set(key, { playerId: player.id, salary: data.salary });
    },
  };
}

/** The record's entry as read for the file (its versionstamp guards the update). */
function versioned(ctx: Context, entity: Entity, id: number): Deno.AtomicCheck {
  return ctx.versions.get(`${entity}:${id}`)!;
}

/** Reads what the rows refer to: the records by external id, the clubs, and for salaries the links. */
async function loadContext(
  kv: Deno.Kv,
  kind: ImportKind,
  cid: number | null,
  rows: Record<string, string>[],
): Promise<Context> {
  const ctx: Context = {
    kind,
    cid,
    ids: { teams: new Map(), players: new Map(), matches: new Map() },
    teams: new Map(),
    players: new Map(),
    matches: new Map(),
    links: new Map(),
    paid: new Set(),
    versions: new Map(),
  };
  const refs: Record<Entity, Set<string>> = {
    teams: new Set(),
    players: new Set(),
    matches: new Set(),
  };
  for (const r of rows) {
    if (kind === "clubs") refs.teams.add(r.externalId);
    if (kind === "players") (refs.players.add(r.externalId), refs.teams.add(r.club));
    if (kind === "matches") {
      refs.matches.add(r.externalId);
      refs.teams.add(r.homeClub);
      refs.teams.add(r.awayClub);
    }
    if (kind === "competition-players") refs.players.add(r.player);
  }
  for (const entity of ["teams", "players", "matches"] as const) {
    const list = [...refs[entity]].filter((r) => r && r.trim());
    const external = list.filter((r) => !r.startsWith("#"));
    const found = await getManyEntries<number>(kv, external.map((r) => keys.externalId(entity, r)));
    external.forEach((r, i) => {
      if (found[i].value !== null) ctx.ids[entity].set(r, found[i].value!);
    });
    for (const r of list.filter((r) => /^#[1-9]\d{0,15}$/.test(r))) {
      ctx.ids[entity].set(r, Number(r.slice(1)));
    }
    const ids = [...new Set(ctx.ids[entity].values())];
    const entries = await getManyEntries<Team | Player | Match>(
      kv,
      ids.map((id) => [entity, id] as Deno.KvKey),
    );
    const map = ctx[entity] as Map<number, Team | Player | Match>;
    entries.forEach((e, i) => {
      if (e.value) {
        map.set(ids[i], e.value);
        ctx.versions.set(`${entity}:${ids[i]}`, e);
      }
    });
    // An index left behind by a deleted record: the row creates the record anew.
    for (const [ref, id] of ctx.ids[entity]) if (!map.has(id)) ctx.ids[entity].delete(ref);
  }
  // Exported rows name clubs by reference: the players' and matches' clubs.
  if (kind === "players") {
    const teamIds = [...ctx.players.values()].map((p) => p.teamId).filter((id) =>
      !ctx.teams.has(id)
    );
    for (const team of await getManyValues<Team>(kv, teamIds.map(keys.team))) {
      ctx.teams.set(team.id, team);
    }
  }
  if (kind === "matches") {
    const teamIds = [...ctx.matches.values()].flatMap((m) => [m.homeTeamId, m.awayTeamId])
      .filter((id) => !ctx.teams.has(id));
    for (const team of await getManyValues<Team>(kv, teamIds.map(keys.team))) {
      ctx.teams.set(team.id, team);
    }
  }
  if (kind === "competition-players") {
    const players = [...ctx.players.keys()];
    const links = await getManyEntries<unknown>(
      kv,
      players.map((id) => keys.competitionPlayer(cid!, id)),
    );
    players.forEach((id, i) => {
      const value = links[i].value as { salary?: number } | number | null;
      if (value === null) return;
      const salary = typeof value === "object" && typeof value.salary === "number"
        ? value.salary
        : null;
      ctx.links.set(id, { entry: links[i], salary });
    });
    ctx.paid = await pickedInPaidEntries(kv, cid!);
  }
  return ctx;
}

/** The players picked in the competition's entries (every entry is paid). */
async function pickedInPaidEntries(kv: Deno.Kv, cid: number): Promise<Set<number>> {
  const ids = await listValues<number>(kv, keys.entriesByCompetition(cid));
  const picked = new Set<number>();
  for (const batch of chunk(ids, 500)) {
    for (const entry of await getManyValues<Entry>(kv, batch.map(keys.entry))) {
      for (const id of entry.playerIds) picked.add(id);
    }
  }
  return picked;
}

async function requireCompetitionId(kv: Deno.Kv, request: ImportRequest): Promise<number | null> {
  if (request.kind !== "competition-players") return null;
  if (!request.competitionId) throw fieldError("competitionId", "Choose the competition");
  const competition = await kv.get<Competition>(keys.competition(request.competitionId));
  if (!competition.value) throw new NotFoundError("Competition not found");
  return competition.value.id;
}

function checkAll(ctx: Context, rows: Record<string, string>[]): Checked[] {
  const seen = new Map<string, number>();
  return rows.map((raw, i) => {
    const checked = checkRow(ctx, raw, i + 1);
    const ref = checked.preview.ref;
    if (ref && seen.has(ref)) {
      checked.preview.action = "error";
      checked.preview.errors.push({
        field: ctx.kind === "competition-players" ? "player" : "externalId",
        reason: `Also on row ${seen.get(ref)}: each record once per file`,
      });
      checked.write = null;
    } else if (ref) seen.set(ref, i + 1);
    return checked;
  });
}

function countActions(rows: PreviewRow[]): Record<RowAction, number> {
  const counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const r of rows) counts[r.action]++;
  return counts;
}

/**
 * InvalidInputError naming the file and the rows with a U+FFFD: what is left of text that was
 * not UTF-8 (a Latin-1 "Müller" read as UTF-8 is "M\uFFFDller"), which would be saved so.
 */
function assertUtf8Rows(request: ImportRequest, rows: Record<string, string>[]): void {
  const bad = rows.flatMap((row, i) => {
    const column = Object.keys(row).find((c) => row[c].includes("\uFFFD"));
    return column ? [{ row: i + 1, column, value: row[column].slice(0, 60) }] : [];
  });
  if (bad.length === 0) return;
  const why = "is not UTF-8 text: save the file as UTF-8 and import it again";
  throw new InvalidInputError(
    `${request.fileName}, row ${bad[0].row} (${bad[0].column}: "${bad[0].value}") ${why}`,
    bad.slice(0, 50).map((b) => ({
      path: ["rows", b.row, b.column],
      message: `Row ${b.row}: ${b.column} "${b.value}" ${why}`,
    })),
  );
}

/** The dry run: what applying the file would do to every row (nothing is written). */
export async function previewImport(kv: Deno.Kv, request: ImportRequest): Promise<ImportPreview> {
  const cid = await requireCompetitionId(kv, request);
  const rows = readRows(request.content, request.format, IMPORT_COLUMNS[request.kind]);
  if (rows.length === 0) throw fieldError("content", "The file has no rows");
  assertUtf8Rows(request, rows);
  const checked = checkAll(await loadContext(kv, request.kind, cid, rows), rows);
  const preview = checked.map((c) => c.preview);
  return { kind: request.kind, rows: preview, counts: countActions(preview) };
}

/** Hears each step of an apply; the apply waits for it before the next step. */
export type OnProgress = (job: ImportJob) => void | Promise<void>;

/**
 * Applies a file (see the module comment): refused whole (InvalidInputError listing the rows)
 * when any row is an error; otherwise staged, then applied chunk by chunk. `onProgress` hears
 * each chunk. Returns the finished import.
 */
export async function applyImport(
  kv: Deno.Kv,
  request: ImportRequest,
  admin: string,
  onProgress: OnProgress = () => {},
  now = new Date(),
): Promise<ImportJob> {
  const preview = await previewImport(kv, request);
  const bad = preview.rows.filter((r) => r.action === "error");
  if (bad.length > 0) {
    throw new InvalidInputError(
      `${bad.length} row${bad.length === 1 ? "" : "s"} with errors: nothing was imported`,
      bad.slice(0, 50).map((r) => ({
        path: ["rows", r.row, r.errors[0]?.field ?? "row"],
        message: `Row ${r.row}: ${r.errors.map((e) => `${e.field}: ${e.reason}`).join("; ")}`,
      })),
    );
  }
  const rows = readRows(request.content, request.format, IMPORT_COLUMNS[request.kind]);
  const id = timeOrderedId(now.getTime());
  const chunkRows = CHUNK_ROWS[request.kind];
  const chunks = chunk(rows, chunkRows);
  for (const [n, part] of chunks.entries()) {
    const res = await kv.atomic().set(keys.importChunk(id, n), part).commit();
    if (!res.ok) throw new Error("Could not stage the import");
  }
  const job: ImportJob = {
    id,
    kind: request.kind,
    format: request.format,
    competitionId: request.competitionId ?? null,
    fileName: request.fileName.slice(0, 200),
    admin,
    createdAt: now.toISOString(),
    finishedAt: null,
    status: "APPLYING",
    rows: rows.length,
    counts: preview.counts,
    chunks: chunks.length,
    chunksDone: 0,
    chunkRows,
    error: null,
  };
  // The commit marker: from here on the import is finished (or resumed), never left half done.
  const marked = await kv.atomic().check({ key: keys.importJob(id), versionstamp: null })
    .set(keys.importJob(id), job).commit();
  if (!marked.ok) throw new ConflictError("Could not start the import, please try again");
  await onProgress(job);
  return resumeImport(kv, id, onProgress);
}

/**
 * Applies the chunks of an APPLYING import from the first not yet applied; see applyImport. Each
 * chunk's rows are checked again against the store as it is then, and its atomic checks the
 * versionstamps of the records it updates and of those its rows refer to (a club deleted since is
 * a conflict, and the rows are checked again), and touches the latter (so a delete racing it
 * looks again and sees the new rows). It keeps what it overwrote; when a later chunk fails, the
 * import turns UNDOING and the chunks already applied are undone, last first, one atomic each,
 * before it ends FAILED: a file is applied whole or not at all. An UNDOING import (a crash
 * mid-undo) resumes its undo.
 */
export async function resumeImport(
  kv: Deno.Kv,
  id: number,
  onProgress: OnProgress = () => {},
): Promise<ImportJob> {
  while (true) {
    const entry = await kv.get<ImportJob>(keys.importJob(id));
    const job = entry.value;
    if (!job) throw new NotFoundError("Import not found");
    if (job.status === "UNDOING") {
      const undone = await undoLastChunk(kv, entry as Deno.KvEntry<ImportJob>);
      if (undone) await onProgress(undone);
      if (undone?.status === "FAILED") return undone;
      continue;
    }
    if (job.status !== "APPLYING") return job;
    if (job.chunksDone >= job.chunks) {
      const done: ImportJob = { ...job, status: "APPLIED", finishedAt: new Date().toISOString() };
      const res = await kv.atomic().check(entry).set(entry.key, done).commit();
      if (!res.ok) continue;
      await deleteChunks(kv, id);
      await onProgress(done);
      return done;
    }
    const rows = (await kv.get<Record<string, string>[]>(keys.importChunk(id, job.chunksDone)))
      .value ?? [];
    const ctx = await loadContext(kv, job.kind, job.competitionId, rows);
    const checked = checkAll(ctx, rows);
    const failed = checked.find((c) => c.preview.action === "error");
    if (failed) {
      const reason = `Row ${
        job.chunksDone * (job.chunkRows ?? LEGACY_CHUNK_ROWS) +
        failed.preview.row
      }: ` +
        failed.preview.errors.map((e) => `${e.field}: ${e.reason}`).join("; ") +
        " (the data changed since the preview); nothing of the file was kept";
      const undoing: ImportJob = { ...job, status: "UNDOING", error: reason };
      const res = await kv.atomic().check(entry).set(entry.key, undoing).commit();
      if (res.ok) await onProgress(undoing);
      continue;
    }
    const creates = checked.filter((c) => c.write && c.creates);
    const entity = (job.kind === "competition-players" ? null : ENTITY_OF[job.kind]) as
      | IdEntity
      | null;
    const reservation = entity && creates.length > 0
      ? await reserveIds(kv, entity, creates.length)
      : null;
    let next = 0;
    const mutations = recordWrites((op) => {
      for (const c of checked) c.write?.(op, () => reservation!.ids[next++]);
      touchReferences(op, ctx, rows);
    });
    const written = mutations.flatMap((m) => m.type === "check" ? [] : [m.key]);
    const unique = [...new Map(written.map((k) => [JSON.stringify(k), k])).values()];
    const before = await getManyEntries<unknown>(kv, unique);
    const steps: UndoStep[] = before.map((e) => ({ key: e.key, before: e.value }));
    const op = kv.atomic();
    for (const m of mutations) {
      if (m.type === "check") op.check(m.check);
      else if (m.type === "set") op.set(m.key, m.value);
      else op.delete(m.key);
    }
    for (const [p, part] of chunk(steps, UNDO_PART_STEPS).entries()) {
      op.set(keys.importUndo(id, job.chunksDone, p), part);
    }
    reservation?.claim(op);
    if (job.kind === "competition-players") bumpLive(op, job.competitionId!);
    else bumpCatalog(op);
    const progressed: ImportJob = { ...job, chunksDone: job.chunksDone + 1 };
    const res = await op.check(entry).set(entry.key, progressed).commit();
    if (res.ok) await onProgress(progressed);
  }
}

/**
 * Checks and touches (writes back unchanged) the records the rows refer to: a players file's
 * clubs, a matches file's clubs, a salaries file's players. A delete of one of them that read
 * before this commit then fails its own versionstamp check and looks again.
 */
function touchReferences(
  op: Deno.AtomicOperation,
  ctx: Context,
  rows: Record<string, string>[],
): void {
  const refs: [Entity, string][] = rows.flatMap((r): [Entity, string][] =>
    ctx.kind === "players"
      ? [["teams", r.club]]
      : ctx.kind === "matches"
      ? [["teams", r.homeClub], ["teams", r.awayClub]]
      : ctx.kind === "competition-players"
      ? [["players", r.player]]
      : []
  );
  const seen = new Set<string>();
  for (const [entity, ref] of refs) {
    const id = lookup(ctx, entity, ref);
    const version = id === null ? undefined : ctx.versions.get(`${entity}:${id}`);
    if (!version || seen.has(`${entity}:${id}`)) continue;
    seen.add(`${entity}:${id}`);
    op.check(version).set(version.key, (version as Deno.KvEntry<unknown>).value);
  }
}

/**
 * Undoes the last chunk an UNDOING import applied (what its keys held before, in one atomic with
 * the record's progress), or, none left, marks the import FAILED. Returns the import as written,
 * or null when its record changed meanwhile (the caller reads it again).
 */
async function undoLastChunk(
  kv: Deno.Kv,
  entry: Deno.KvEntry<ImportJob>,
): Promise<ImportJob | null> {
  const job = entry.value;
  if (job.chunksDone === 0) {
    const failed: ImportJob = { ...job, status: "FAILED", finishedAt: new Date().toISOString() };
    const res = await kv.atomic().check(entry).set(entry.key, failed).commit();
    if (!res.ok) return null;
    await deleteChunks(kv, job.id);
    return failed;
  }
  const n = job.chunksDone - 1;
  const parts = await Array.fromAsync(kv.list<UndoStep[]>({ prefix: keys.importUndos(job.id, n) }));
  const op = kv.atomic();
  for (const part of parts) {
    for (const step of part.value) {
      if (step.before === null) op.delete(step.key);
      else op.set(step.key, step.before);
    }
    op.delete(part.key);
  }
  if (job.kind === "competition-players") bumpLive(op, job.competitionId!);
  else bumpCatalog(op);
  const undone: ImportJob = { ...job, chunksDone: n };
  const res = await op.check(entry).set(entry.key, undone).commit();
  return res.ok ? undone : null;
}

/** Deletes an import's staged chunks and undo records (it is finished). */
async function deleteChunks(kv: Deno.Kv, id: number): Promise<void> {
  const staged: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix: keys.importChunks(id) })) staged.push(e.key);
  for await (const e of kv.list({ prefix: keys.importUndos(id) })) staged.push(e.key);
  for (const batch of chunk(staged, 500)) {
    const op = kv.atomic();
    for (const key of batch) op.delete(key);
    await op.commit();
  }
}

/** The imports, newest first (at most `limit`). */
export async function listImports(kv: Deno.Kv, limit = 50): Promise<ImportJob[]> {
  const out: ImportJob[] = [];
  for await (
    const e of kv.list<ImportJob>({ prefix: keys.importJobs() }, { reverse: true, limit })
  ) {
    out.push(e.value);
  }
  return out;
}

/** Every record of a kind as the rows of a file (by id), in `format`. */
export async function exportRows(
  kv: Deno.Kv,
  kind: ImportKind,
  format: ImportFormat,
  competitionId?: number | null,
): Promise<string> {
  const teams = new Map((await listValues<Team>(kv, keys.teams())).map((t) => [t.id, t]));
  let rows: Row[];
  if (kind === "clubs") rows = [...teams.values()].map(clubRow);
  else if (kind === "players") {
    rows = (await listValues<Player>(kv, keys.players())).map((p) => playerRow(p, teams));
  } else if (kind === "matches") {
    rows = (await listValues<Match>(kv, keys.matches())).map((m) => matchRow(m, teams));
  } else {
    const cid = await requireCompetitionId(kv, {
      kind,
      format,
      competitionId,
      fileName: "",
      content: "",
    });
    const links = await listValues<{ playerId?: number; salary?: number } | number>(
      kv,
      keys.competitionPlayers(cid!),
    );
    const ids = links.map((l) => (typeof l === "number" ? l : l.playerId!));
    const players = new Map(
      (await getManyValues<Player>(kv, ids.map(keys.player))).map((p) => [p.id, p]),
    );
    rows = links.flatMap((l) => {
      const player = players.get(typeof l === "number" ? l : l.playerId!);
      if (!player) return [];
      return [salaryRow(player, typeof l === "number" ? player.salary : l.salary!)];
    });
  }
  return writeRows(rows, format, IMPORT_COLUMNS[kind]);
}
