/**
 * A competition's players play in its match: with a match set, only players of its two clubs can
 * be added. A start-up migration finds the competitions that offer other players: it takes them
 * out of those without paid entries and lists the rest (`["off_match_competitions", cid]`) on the
 * admin dashboard, for an admin to decide.
 */
import type { Competition, Match, Player } from "@/lib/domain/types.ts";
import { listCompetitions } from "./competitions.ts";
import { listCompetitionPlayerIds, removeCompetitionPlayers } from "./competition_players.ts";
import { keys } from "@/lib/store/keys.ts";
import { getPlayersByIds } from "./players.ts";
import { outsiders } from "./match_clubs.ts";

/** A competition found offering players from outside its match. */
export interface OffMatchFinding {
  competitionId: number;
  /** "Jordan Radcliffe (KBA)", … */
  players: string[];
  foundAt: string;
}

/** The players of a competition from outside its match, as "Name (CLUB)" (none without a match). */
export async function offMatchPlayers(kv: Deno.Kv, competition: Competition) {
  if (competition.matchId === null) return { off: [] as Player[], named: [] as string[] };
  const match = (await kv.get<Match>(keys.match(competition.matchId))).value;
  if (!match) return { off: [] as Player[], named: [] as string[] };
  const players = await getPlayersByIds(kv, await listCompetitionPlayerIds(kv, competition.id));
  return outsiders(kv, match, players);
}

/**
 * Migration: UPCOMING and LIVE competitions offering players from outside their match lose those
 * players when nobody has entered yet; the others are recorded for the dashboard. Finished ones
 * are history and left alone. Idempotent; returns how many competitions it fixed and listed.
 */
export async function migrateOffMatchPlayers(
  kv: Deno.Kv,
  now = new Date(),
): Promise<{ fixed: number; listed: number }> {
  let fixed = 0;
  let listed = 0;
  for (const c of await listCompetitions(kv)) {
    if (c.status !== "UPCOMING" && c.status !== "LIVE") continue;
    const { off, named } = await offMatchPlayers(kv, c);
    if (off.length === 0) continue;
    if (c.currentEntries === 0) {
      await removeCompetitionPlayers(kv, c.id, off.map((p) => p.id));
      fixed++;
      continue;
    }
    const finding: OffMatchFinding = {
      competitionId: c.id,
      players: named,
      foundAt: now.toISOString(),
    };
    await kv.set(keys.offMatchCompetition(c.id), finding);
    listed++;
  }
  return { fixed, listed };
}

/**
 * The listed competitions that still offer players from outside their match, by id, with those
 * players named; a finding that no longer holds (players removed, match changed) is dropped.
 */
export async function listOffMatchFindings(
  kv: Deno.Kv,
  competitions: Competition[],
): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  const ids: number[] = [];
  for await (const e of kv.list<OffMatchFinding>({ prefix: keys.offMatchCompetitions() })) {
    ids.push(e.value.competitionId);
  }
  if (ids.length === 0) return found;
  const byId = new Map(competitions.map((c) => [c.id, c]));
  for (const id of ids) {
    const c = byId.get(id);
    const named = c ? (await offMatchPlayers(kv, c)).named : [];
    if (named.length > 0) found.set(id, named);
    else await kv.delete(keys.offMatchCompetition(id));
  }
  return found;
}
