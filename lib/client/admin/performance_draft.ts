/**
 * The Player Performances screen's rows as typed, and their conversion to the shared
 * `performanceInputSchema` body and to live points with the server's `scorePerformance`.
 */
import { performanceInputSchema } from "@/lib/domain/schemas/match_day.ts";
import {
  BONUS_POINTS,
  emptyStats,
  MAX_MINUTES,
  MAX_YELLOW_CARDS,
  normaliseBonus,
  scorePerformance,
} from "@/lib/domain/scoring.ts";
import type { PerformanceStats, Position } from "@/lib/domain/types.ts";
import { type FieldErrors, issuesToErrors } from "@/lib/client/form_errors.ts";
import type { PerformanceRecord } from "@/lib/client/admin/types.ts";

export type CountKey =
  | "minutesPlayed"
  | "goals"
  | "assists"
  | "saves"
  | "goalsConceded"
  | "yellowCards"
  | "penaltySaves"
  | "penaltyMisses"
  | "ownGoals"
  | "bonus";

/** One row: counts as typed (strings) and the two flags. */
export type PerfDraft = Record<CountKey, string> & { cleanSheet: boolean; redCard: boolean };

/** Input limits of a performance row (the server refuses anything outside them). */
export const LIMITS: Record<CountKey, { min: number; max?: number; step?: number }> = {
  minutesPlayed: { min: 0, max: MAX_MINUTES },
  goals: { min: 0 },
  assists: { min: 0 },
  saves: { min: 0 },
  goalsConceded: { min: 0 },
  yellowCards: { min: 0, max: MAX_YELLOW_CARDS },
  penaltySaves: { min: 0 },
  penaltyMisses: { min: 0 },
  ownGoals: { min: 0 },
  bonus: { min: 0, max: BONUS_POINTS, step: BONUS_POINTS },
};

const COUNT_KEYS = Object.keys(LIMITS) as CountKey[];

/** The draft of a record (missing performance → zeros). */
export function draftOf(record: PerformanceRecord): PerfDraft {
  const stats = { ...emptyStats(), ...(record.performance ?? {}) } as PerformanceStats;
  const draft = { cleanSheet: Boolean(stats.cleanSheet), redCard: Boolean(stats.redCard) };
  const counts = Object.fromEntries(COUNT_KEYS.map((k) => [k, String(stats[k] ?? 0)]));
  return { ...draft, ...counts } as PerfDraft;
}

/** The counting stats of a draft (blank and invalid count as 0; bonus normalised). */
function statsOf(draft: PerfDraft): PerformanceStats {
  const n = (k: CountKey) => {
    const v = Number(draft[k]);
    return Number.isFinite(v) ? v : 0;
  };
  return {
    minutesPlayed: n("minutesPlayed"),
    goals: n("goals"),
    assists: n("assists"),
    saves: n("saves"),
    goalsConceded: n("goalsConceded"),
    yellowCards: n("yellowCards"),
    penaltySaves: n("penaltySaves"),
    penaltyMisses: n("penaltyMisses"),
    ownGoals: n("ownGoals"),
    bonus: normaliseBonus(n("bonus")),
    cleanSheet: draft.cleanSheet,
    redCard: draft.redCard,
  };
}

/** Live total points of a row, with the same scoring code as the server. */
export function draftPoints(position: Position, draft: PerfDraft): number {
  return scorePerformance(position, statsOf(draft)).totalPoints;
}

/** The body item of a row: its fields plus player.position. */
export function draftPayload(playerId: number, position: Position, draft: PerfDraft) {
  const counts = Object.fromEntries(COUNT_KEYS.map((k) => [k, draft[k]]));
  return {
    playerId,
    ...counts,
    cleanSheet: draft.cleanSheet,
    redCard: draft.redCard,
    player: { position },
  };
}

/** Field errors of a row according to the shared schema, or null when valid. */
export function draftErrors(
  playerId: number,
  position: Position,
  draft: PerfDraft,
): FieldErrors | null {
  const parsed = performanceInputSchema.safeParse(draftPayload(playerId, position, draft));
  return parsed.success ? null : issuesToErrors(parsed.error.issues);
}
