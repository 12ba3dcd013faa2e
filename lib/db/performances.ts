/** Player performances per competition: `["performances", cid, playerId]`, points computed on save. */
import { emptyStats, normaliseBonus, scorePerformance } from "@/lib/domain/scoring.ts";
import type {
  Competition,
  PerformanceStats,
  PlayerPerformance,
  Position,
  Team,
} from "@/lib/domain/types.ts";
import { POSITIONS } from "@/lib/domain/types.ts";
import { fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import { reserveIds } from "@/lib/store/ids.ts";
import { ATOMIC_CHUNK, keys } from "@/lib/store/keys.ts";
import { bumpLive } from "@/lib/store/live.ts";
import { listCompetitionPlayers } from "./competition_players.ts";
import { chunk, getManyEntries, listValues, retryAtomic } from "@/lib/store/util.ts";

export type PerformanceInput = Partial<PerformanceStats> & { playerId: number };

export interface PerformanceRow {
  player: { id: number; name: string; position: Position; teamId: number; team: Team | null };
  performance: PlayerPerformance;
}

/** The stats of `input` over zeros, with the bonus normalised to 0 or 3. */
export function statsOf(input: Partial<PerformanceStats>): PerformanceStats {
  const base = emptyStats();
  const stats = { ...base };
  for (const field of Object.keys(base) as (keyof PerformanceStats)[]) {
    if (input[field] !== undefined) (stats as Record<string, unknown>)[field] = input[field];
  }
  stats.bonus = normaliseBonus(Number(stats.bonus));
  return stats;
}

/** A performance record with its total computed from the stats. */
export function scoredPerformance(
  base: { id: number; playerId: number; competitionId: number },
  position: Position,
  stats: PerformanceStats,
): PlayerPerformance {
  return { ...base, ...stats, totalPoints: scorePerformance(position, stats).totalPoints };
}

/** Every performance of a competition, keyed by player id. */
export async function getPerformancesMap(
  kv: Deno.Kv,
  cid: number,
): Promise<Map<number, PlayerPerformance>> {
  const all = await listValues<PlayerPerformance>(kv, keys.performances(cid));
  return new Map(all.map((p) => [p.playerId, p]));
}

/** The performances of these players in a competition, by player id (none recorded: absent). */
export async function getPlayerPerformances(
  kv: Deno.Kv,
  cid: number,
  playerIds: readonly number[],
): Promise<Map<number, PlayerPerformance>> {
  const found = await getManyEntries<PlayerPerformance>(
    kv,
    playerIds.map((id) => keys.performance(cid, id)),
  );
  return new Map(found.flatMap((e) => (e.value ? [[e.value.playerId, e.value]] : [])));
}

/**
 * One row per competition player (by position GK→FWD, then name) with their performance; a
 * player with nothing recorded gets zeros (id 0).
 */
export async function listPerformances(kv: Deno.Kv, cid: number): Promise<PerformanceRow[]> {
  const [players, performances] = await Promise.all([
    listCompetitionPlayers(kv, cid),
    getPerformancesMap(kv, cid),
  ]);
  players.sort((a, b) =>
    POSITIONS.indexOf(a.position) - POSITIONS.indexOf(b.position) || a.name.localeCompare(b.name)
  );
  return players.map((p) => ({
    player: { id: p.id, name: p.name, position: p.position, teamId: p.teamId, team: p.team },
    performance: performances.get(p.id) ??
      { id: 0, playerId: p.id, competitionId: cid, ...emptyStats(), totalPoints: 0 },
  }));
}

/**
 * Saves the performances of competition players (totals computed, bonus normalised), one atomic
 * per chunk with the live bump. InvalidInputError when a player is not in the competition.
 */
export async function savePerformances(
  kv: Deno.Kv,
  cid: number,
  inputs: PerformanceInput[],
): Promise<PlayerPerformance[]> {
  const competition = (await kv.get<Competition>(keys.competition(cid))).value;
  if (!competition) throw new NotFoundError("Competition not found");
  const byPlayer = new Map(inputs.map((input) => [input.playerId, input]));
  const players = new Map((await listCompetitionPlayers(kv, cid)).map((p) => [p.id, p]));
  const outsiders = [...byPlayer.keys()].filter((id) => !players.has(id));
  if (outsiders.length > 0) {
    const message = `Players ${outsiders.join(", ")} are not part of this competition.`;
    throw fieldError("performances", message);
  }
  const saved: PlayerPerformance[] = [];
  for (const batch of chunk([...byPlayer.values()], ATOMIC_CHUNK)) {
    saved.push(
      ...await retryAtomic("save the performances", async () => {
        const current = await getManyEntries<PlayerPerformance>(
          kv,
          batch.map((input) => keys.performance(cid, input.playerId)),
        );
        const fresh = current.filter((e) => e.value === null).length;
        const reservation = await reserveIds(kv, "performances", fresh);
        let next = 0;
        const records = batch.map((input, i) => {
          const id = current[i].value?.id ?? reservation.ids[next++];
          const position = players.get(input.playerId)!.position;
          return scoredPerformance(
            { id, playerId: input.playerId, competitionId: cid },
            position,
            statsOf(input),
          );
        });
        const op = reservation.claim(kv.atomic());
        for (const record of records) op.set(keys.performance(cid, record.playerId), record);
        const res = await bumpLive(op, cid).commit();
        return res.ok ? records : undefined;
      }),
    );
  }
  return saved;
}
