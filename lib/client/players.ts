/**
 * The slim player shape the team builder and checkout islands receive (what a row shows and what
 * the team rules read), built on the server or from GET /api/competitions/{id}/players.
 */
import type { Position } from "@/lib/domain/types.ts";
import type { SeasonStats } from "@/lib/domain/scoring.ts";
import { toNumber } from "@/lib/domain/format.ts";
import { apiFetch } from "@/lib/client/api.ts";

export interface PickPlayer {
  id: number;
  name: string;
  position: Position;
  teamId: number;
  salary: number;
  teamName: string;
  teamShortName: string;
  /** Team crest, else the player's picture, else null (initial shown). */
  crest: string | null;
  /** The season so far (absent where the answer did not carry it). */
  season?: SeasonStats;
}

interface PlayerLike {
  id: number;
  name: string;
  position: Position;
  teamId: number;
  salary: number | string | null;
  imageUrl?: string | null;
  team?: { name: string; shortName?: string | null; logoUrl?: string | null } | null;
  goals?: number;
  assists?: number;
  cleanSheets?: number;
}

const whole = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;

/** An unset salary shows as 1000. */
const DEFAULT_SALARY = 1000;

/** The slim shape of a player with its team. */
export function toPickPlayer(p: PlayerLike): PickPlayer {
  const salary = p.salary === null || p.salary === "" ? DEFAULT_SALARY : toNumber(p.salary);
  return {
    id: p.id,
    name: p.name,
    position: p.position,
    teamId: p.teamId,
    salary,
    teamName: p.team?.name ?? "",
    teamShortName: p.team?.shortName || p.team?.name || "",
    crest: p.team?.logoUrl || p.imageUrl || null,
    season: { goals: whole(p.goals), assists: whole(p.assists), cleanSheets: whole(p.cleanSheets) },
  };
}

/** The players of a competition from GET /api/competitions/{id}/players, by salary descending. */
export async function fetchPickPlayers(competitionId: number): Promise<PickPlayer[]> {
  const list = await apiFetch<PlayerLike[]>(`/api/competitions/${competitionId}/players`);
  return list.map(toPickPlayer).sort((a, b) => b.salary - a.salary);
}
