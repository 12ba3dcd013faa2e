/**
 * Fantasy scoring: one table used by the server to award
 * points and by the breakdown dialog to explain them, so the lines always sum to the total.
 */
import type { EventType, PerformanceStats, Position } from "./types.ts";

export interface PositionScoring {
  /** Played 1–59 minutes. */
  played: number;
  /** Played 60 minutes or more (replaces `played`). */
  played60: number;
  goal: number;
  assist: number;
  cleanSheet: number;
  save: number;
  penaltySave: number;
  penaltyMiss: number;
  ownGoal: number;
  yellowCard: number;
  redCard: number;
  /** Per 2 goals conceded. */
  goalsConcededPer2: number;
}

const COMMON = {
  played: 1,
  played60: 2,
  assist: 3,
  penaltyMiss: -2,
  ownGoal: -2,
  yellowCard: -1,
  redCard: -3,
} as const;

/** Points per unit for each position. */
export const SCORING: Readonly<Record<Position, Readonly<PositionScoring>>> = {
  GK: { ...COMMON, goal: 6, cleanSheet: 4, save: 0.5, penaltySave: 5, goalsConcededPer2: -1 },
  DEF: { ...COMMON, goal: 6, cleanSheet: 4, save: 0, penaltySave: 0, goalsConcededPer2: -1 },
  MID: { ...COMMON, goal: 5, cleanSheet: 1, save: 0, penaltySave: 0, goalsConcededPer2: 0 },
  FWD: { ...COMMON, goal: 4, cleanSheet: 0, save: 0, penaltySave: 0, goalsConcededPer2: 0 },
};

/** Points of the best player in a match. */
export const BONUS_POINTS = 3;
export const MAX_YELLOW_CARDS = 2;
export const MAX_MINUTES = 90;

export type BreakdownKey =
  | "minutes"
  | "goals"
  | "assists"
  | "cleanSheets"
  | "saves"
  | "penaltySaves"
  | "penaltyMisses"
  | "ownGoals"
  | "yellowCards"
  | "redCards"
  | "goalsConceded"
  | "bonus"
  /** The captain's extra points (lib/domain/captain.ts): points × (multiplier − 1). */
  | "captain";

/** One line of a breakdown, displayed as "label: count × value = points". */
export interface BreakdownLine {
  key: BreakdownKey;
  label: string;
  count: number;
  value: number;
  points: number;
}

/** Points rounded to 1 decimal, so sums of 0.5 steps never drift (and never show -0). */
export function roundPoints(n: number): number {
  const r = Math.round(n * 10) / 10;
  return r === 0 ? 0 : r;
}

/** A count read defensively: whole, at least 0. */
function count(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** Bonus is 0 or 3: any positive entry becomes 3. */
export function normaliseBonus(n: number): number {
  return n > 0 ? BONUS_POINTS : 0;
}

/** One breakdown line: `n` times `value` points. */
function line(key: BreakdownKey, label: string, n: number, value: number): BreakdownLine {
  return { key, label, count: n, value, points: roundPoints(n * value) };
}

/** All candidate lines, in display order (some may score 0). */
function allLines(position: Position, s: PerformanceStats): BreakdownLine[] {
  const v = SCORING[position];
  const minutes = count(s.minutesPlayed);
  return [
    minutes >= 60
      ? line("minutes", "Played 60+ min", 1, v.played60)
      : line("minutes", "Played 1-59 min", minutes > 0 ? 1 : 0, v.played),
    line("goals", "Goals", count(s.goals), v.goal),
    line("assists", "Assists", count(s.assists), v.assist),
    line("cleanSheets", "Clean sheet", s.cleanSheet ? 1 : 0, v.cleanSheet),
    line("saves", "Saves", count(s.saves), v.save),
    line("penaltySaves", "Penalty saves", count(s.penaltySaves), v.penaltySave),
    line("penaltyMisses", "Penalty misses", count(s.penaltyMisses), v.penaltyMiss),
    line("ownGoals", "Own goals", count(s.ownGoals), v.ownGoal),
    line("yellowCards", "Yellow cards", count(s.yellowCards), v.yellowCard),
    line("redCards", "Red card", s.redCard ? 1 : 0, v.redCard),
    line(
      "goalsConceded",
      "Goals conceded (per 2)",
      Math.floor(count(s.goalsConceded) / 2),
      v.goalsConcededPer2,
    ),
    line("bonus", "Bonus", 1, normaliseBonus(s.bonus)),
  ];
}

/**
 * Points of one performance with the lines that produced them (only lines with non-zero points).
 * The sum of the lines' points equals totalPoints exactly.
 */
export function scorePerformance(
  position: Position,
  stats: PerformanceStats,
): { totalPoints: number; lines: BreakdownLine[] } {
  const lines = allLines(position, stats).filter((l) => l.points !== 0);
  const totalPoints = roundPoints(lines.reduce((sum, l) => sum + l.points, 0));
  return { totalPoints, lines };
}

/** The entry-details pointsBreakdown shape. */
export interface PointsBreakdown {
  totalPoints: number;
  goals: number;
  assists: number;
  saves: number;
  yellowCards: number;
  redCards: number;
  cleanSheets: number;
  penaltySaves: number;
  penaltyMisses: number;
  ownGoals: number;
}

/**
 * Points per category in the entry-details shape. Each field holds POINTS, not counts.
 * Minutes, goals conceded and bonus have no field: they are counted in totalPoints only.
 */
export function pointsBreakdown(position: Position, stats: PerformanceStats): PointsBreakdown {
  const { totalPoints, lines } = scorePerformance(position, stats);
  const of = (key: BreakdownKey) => lines.find((l) => l.key === key)?.points ?? 0;
  return {
    totalPoints,
    goals: of("goals"),
    assists: of("assists"),
    saves: of("saves"),
    yellowCards: of("yellowCards"),
    redCards: of("redCards"),
    cleanSheets: of("cleanSheets"),
    penaltySaves: of("penaltySaves"),
    penaltyMisses: of("penaltyMisses"),
    ownGoals: of("ownGoals"),
  };
}

/** A player's season so far, as the player record counts it. */
export interface SeasonStats {
  goals: number;
  assists: number;
  cleanSheets: number;
}

/**
 * The points a player's season counts earned (goals, assists and clean sheets at the
 * competition's values for the position), with one line per count.
 * @example seasonPoints("MID", { goals: 2, assists: 1, cleanSheets: 3 }).totalPoints // 16
 */
export function seasonPoints(
  position: Position,
  season: SeasonStats,
): { totalPoints: number; lines: BreakdownLine[] } {
  const v = SCORING[position];
  const lines: BreakdownLine[] = [
    line("goals", "Goals", count(season.goals), v.goal),
    line("assists", "Assists", count(season.assists), v.assist),
    line("cleanSheets", "Clean sheets", count(season.cleanSheets), v.cleanSheet),
  ];
  return { totalPoints: roundPoints(lines.reduce((sum, l) => sum + l.points, 0)), lines };
}

/** A performance with nothing recorded. */
export function emptyStats(): PerformanceStats {
  return {
    goals: 0,
    assists: 0,
    cleanSheet: false,
    yellowCards: 0,
    redCard: false,
    saves: 0,
    penaltySaves: 0,
    penaltyMisses: 0,
    ownGoals: 0,
    minutesPlayed: 0,
    goalsConceded: 0,
    bonus: 0,
  };
}

type CountField = "goals" | "assists" | "saves" | "penaltySaves" | "penaltyMisses" | "ownGoals";

const COUNT_FIELDS: Partial<Record<EventType, CountField>> = {
  GOAL: "goals",
  ASSIST: "assists",
  SAVE: "saves",
  PENALTY_SAVE: "penaltySaves",
  PENALTY_MISS: "penaltyMisses",
  OWN_GOAL: "ownGoals",
};

/**
 * The stats after a game event is recorded (direction 1) or deleted (direction -1); a new object.
 * Counts never go below 0; yellow cards stay within 0..2; RED_CARD and CLEAN_SHEET set the flag
 * on 1 and clear it on -1. An unknown event type changes nothing.
 */
export function applyEvent(
  stats: PerformanceStats,
  eventType: EventType,
  direction: 1 | -1,
): PerformanceStats {
  const next = { ...stats };
  const field = COUNT_FIELDS[eventType];
  if (field) {
    next[field] = Math.max(0, count(stats[field]) + direction);
  } else if (eventType === "YELLOW_CARD") {
    next.yellowCards = Math.min(
      MAX_YELLOW_CARDS,
      Math.max(0, count(stats.yellowCards) + direction),
    );
  } else if (eventType === "RED_CARD") {
    next.redCard = direction === 1;
  } else if (eventType === "CLEAN_SHEET") {
    next.cleanSheet = direction === 1;
  }
  return next;
}

/** Display labels of the event types. */
export const EVENT_LABELS: Readonly<Record<EventType, string>> = {
  GOAL: "Goal",
  ASSIST: "Assist",
  SAVE: "Save",
  YELLOW_CARD: "Yellow Card",
  RED_CARD: "Red Card",
  CLEAN_SHEET: "Clean Sheet",
  PENALTY_SAVE: "Penalty Save",
  PENALTY_MISS: "Penalty Miss",
  OWN_GOAL: "Own Goal",
};

/** Label of an event type; 'Event' for a type not in the list. */
export function eventLabel(type: string): string {
  return Object.hasOwn(EVENT_LABELS, type) ? EVENT_LABELS[type as EventType] : "Event";
}
