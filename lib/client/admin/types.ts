/** Shapes the admin screens read from the admin API. */
import type {
  Competition,
  GameEvent,
  Match,
  PerformanceStats,
  Player,
  Position,
  Team,
} from "@/lib/domain/types.ts";

/** A dashboard row: the competition plus its paid entries and revenue. */
export type CompetitionRow = Competition & {
  entries?: number;
  revenue?: number;
  /** Why visitors do not see it yet (no valid team can be built); null when listed. */
  hiddenReason?: string | null;
  /** The refunds of a cancelled competition: how far its background job got. */
  cancellation?: CancellationProgress | null;
  /** Players it offers from outside its match ("Name (CLUB)"), kept because it has entries. */
  offMatchPlayers?: string[] | null;
};

/** Progress of a cancellation's refunds, as the dashboard shows it. */
export interface CancellationProgress {
  processed: number;
  total: number;
  refunded: number;
  pending: number;
  finishedAt: string | null;
  lastPassAt: string | null;
}

export type MatchWithTeams = Match & { homeTeam: Team | null; awayTeam: Team | null };

export type PlayerWithTeam = Player & { team: Team | null };

/** One row of the performances screen: the player and what was recorded for them. */
export interface PerformanceRecord {
  player: { id: number; name: string; position: Position; team?: Team | null };
  performance: (Partial<PerformanceStats> & { totalPoints?: number }) | null;
}

export type EventWithPlayer = GameEvent & {
  player?: { id?: number; name: string; team?: { shortName: string } | null } | null;
};

/** Daily funnel counts of the first-party analytics. */
export interface AnalyticsDay {
  date: string;
  views: number;
  teamCompleted: number;
  paymentPage: number;
  purchases: number;
}

/** Entries made per day of a competition (for the sparkline in the dashboard). */
export interface AnalyticsSummary {
  days: AnalyticsDay[];
}
