/**
 * The one-time data migrations of a start: each runs until it finished once on a store, then a
 * marker `["migrations", name]` says so, and later starts cost one `getMany` for all of them
 * instead of a scan of every competition, link or entry. Each migration is idempotent, so two
 * processes that run one at once (or a run cut short) write the same result.
 */
import { migrateCompetitionPlayerSalaries } from "./competition_players.ts";
import {
  migrateDisplayNames,
  migrateEntriesByEmail,
  migratePersonKeys,
} from "./entries_by_email.ts";
import { keys } from "@/lib/store/keys.ts";
import { backfillRosters } from "@/lib/store/roster.ts";
import { migrateOffMatchPlayers } from "./match_players.ts";
import { migratePushRetryOrder } from "./push_retries.ts";
import { migrateOutboxRecipients } from "./outbox.ts";

/** Every migration by its marker name, run in this order. */
const MIGRATIONS: Record<string, (kv: Deno.Kv) => Promise<unknown>> = {
  competition_player_salaries: migrateCompetitionPlayerSalaries,
  entries_by_email: migrateEntriesByEmail,
  /** The entry limit counts a person, not a spelling of their address: older counts re-keyed. */
  person_keys_by_mailbox: migratePersonKeys,
  /** Display names are unique within a competition: older entries' names recorded. */
  display_names_by_competition: migrateDisplayNames,
  roster_backfill: backfillRosters,
  off_match_players: migrateOffMatchPlayers,
  /** Kept pushes are read in due-time order, not all of them per run. */
  push_retry_order: migratePushRetryOrder,
  /** Support finds what was sent to an address without reading the whole outbox. */
  outbox_by_recipient: migrateOutboxRecipients,
};

/**
 * Runs the migrations this store has not finished yet and marks each one done; returns the
 * names it ran.
 * @example const ran = await runPendingMigrations(kv); // [] on every start but the first
 */
export async function runPendingMigrations(kv: Deno.Kv): Promise<string[]> {
  const names = Object.keys(MIGRATIONS);
  const markers = await kv.getMany(names.map(keys.migration));
  const pending = names.filter((_, i) => markers[i].versionstamp === null);
  for (const name of pending) {
    await MIGRATIONS[name](kv);
    await kv.set(keys.migration(name), new Date().toISOString());
  }
  return pending;
}
