/**
 * The modules of the store by role, as the architecture tests read them
 * (tests/unit/store_layout_test.ts, the write enumeration of tests/helpers/db_writers.ts and the
 * server areas of tests/unit/layers_test.ts):
 * - the storage engine: how records are kept, whatever they mean (the key layout, ids, change
 *   markers, the group commit, the store wrappers, the roster, dump and restore);
 * - the entities (lib/db/): one module per kind of record, written on the engine;
 * - the auth records: admin accounts and sign-in records, read by lib/auth and the admin routes.
 * The lists name each role's modules; when a role has a folder of its own (lib/store/,
 * lib/auth/records/), every module in that folder is of that role too, so a new one is counted
 * without being listed.
 */
import { dirname } from "node:path";
import { filesUnder } from "@/tests/helpers/import_graph.ts";

/** The entities' folder: every module in it that is not of another role. */
export const ENTITY_FOLDER = "lib/db";

/** The storage engine. */
export const ENGINE: readonly string[] = [
  "lib/store/base64.ts",
  "lib/store/busy_retry.ts",
  "lib/store/catalog.ts",
  "lib/store/dump.ts",
  "lib/store/group_commit.ts",
  "lib/store/ids.ts",
  "lib/store/instrumented_kv.ts",
  "lib/store/keys.ts",
  "lib/store/kv_wrapper.ts",
  "lib/store/leaderboard_reads.ts",
  "lib/store/leases.ts",
  "lib/store/live.ts",
  "lib/store/roster.ts",
  "lib/store/roster_codec.ts",
  "lib/store/store_state.ts",
  "lib/store/touch.ts",
  "lib/store/util.ts",
];

/** The admin accounts and sign-in records. */
export const AUTH_RECORDS: readonly string[] = [
  "lib/auth/records/admins.ts",
  "lib/auth/records/login_trust.ts",
  "lib/auth/records/oauth_states.ts",
  "lib/auth/records/sessions.ts",
  "lib/auth/records/totp.ts",
];

/** The folder `modules` share when it is theirs alone (not the entities'), else null. */
function ownFolder(modules: readonly string[]): string | null {
  const folders = new Set(modules.map((module) => dirname(module)));
  if (folders.size !== 1) return null;
  const [folder] = folders;
  return folder === ENTITY_FOLDER ? null : folder;
}

/** `modules` and every module in their own folder, if they have one, sorted. */
async function withOwnFolder(modules: readonly string[]): Promise<string[]> {
  const folder = ownFolder(modules);
  const found = new Set([...modules, ...folder ? await filesUnder(folder) : []]);
  return [...found].sort();
}

/** The engine's modules (repo-relative). */
export function engineModules(): Promise<string[]> {
  return withOwnFolder(ENGINE);
}

/** The auth records' modules (repo-relative). */
export function authRecordModules(): Promise<string[]> {
  return withOwnFolder(AUTH_RECORDS);
}

/** The entity modules (repo-relative): the entities' folder but the modules of other roles. */
export async function entityModules(): Promise<string[]> {
  const others = new Set([...await engineModules(), ...await authRecordModules()]);
  return (await filesUnder(ENTITY_FOLDER)).filter((module) => !others.has(module));
}

/** Every folder that holds modules of the store: the entities' and each role's own. */
export function storeFolders(): string[] {
  const own = [ownFolder(ENGINE), ownFolder(AUTH_RECORDS)];
  return [ENTITY_FOLDER, ...own.filter((folder): folder is string => folder !== null)];
}
