/**
 * Entity and enumeration types shared by the server, the islands and the tests.
 * Field names are the API's. Money is a number with at most 2 decimals; dates are ISO strings.
 */

export const POSITIONS = ["GK", "DEF", "MID", "FWD"] as const;
export type Position = typeof POSITIONS[number];

/** The statuses an admin picks in the competition form. */
export const COMPETITION_STATUSES = ["UPCOMING", "LIVE", "COMPLETED"] as const;
/** CANCELLED is reached only by cancelling (every entry refunded) and is final. */
export type CompetitionStatus = typeof COMPETITION_STATUSES[number] | "CANCELLED";

export const LEAGUES = [
  "PREMIER_LEAGUE",
  "LA_LIGA",
  "BUNDESLIGA",
  "SERIE_A",
  "LIGUE_1",
  "CHAMPIONS_LEAGUE",
  "EUROPA_LEAGUE",
] as const;
export type League = typeof LEAGUES[number];

export const MATCH_RESULTS = ["HOME_WIN", "AWAY_WIN", "DRAW", "NOT_PLAYED"] as const;
export type MatchResult = typeof MATCH_RESULTS[number];

/**
 * A match is UPCOMING until it kicks off (LIVE once the feed or a game event says so) and
 * COMPLETED once both scores are saved. POSTPONED is set by an admin or the feed and kept until
 * an admin saves the match with another status (lib/domain/match_clock.ts).
 */
export const MATCH_STATUSES = ["UPCOMING", "LIVE", "COMPLETED", "POSTPONED"] as const;
export type MatchStatus = typeof MATCH_STATUSES[number];

export const EVENT_TYPES = [
  "GOAL",
  "ASSIST",
  "SAVE",
  "YELLOW_CARD",
  "RED_CARD",
  "CLEAN_SHEET",
  "PENALTY_SAVE",
  "PENALTY_MISS",
  "OWN_GOAL",
] as const;
export type EventType = typeof EVENT_TYPES[number];

export const PRIZE_TYPES = ["CASH", "NON_CASH"] as const;
export type PrizeType = typeof PRIZE_TYPES[number];

export const CURRENCIES = ["USD", "GBP"] as const;
export type Currency = typeof CURRENCIES[number];

/** The contest templates an admin makes in one go (lib/domain/formats.ts). */
export const CONTEST_TEMPLATES = ["HEAD_TO_HEAD", "FIFTY_FIFTY", "TOURNAMENT", "PRIVATE"] as const;
export type ContestTemplate = typeof CONTEST_TEMPLATES[number];

/** How a template's pool is paid: the winner, the top half equally, or a tiered table. */
export const PAYOUTS = ["WINNER_TAKES_ALL", "TOP_HALF", "TIERED"] as const;
export type Payout = typeof PAYOUTS[number];

/** GROWING: fee × entries × (1 − the operator's share); GUARANTEED: the fixed prizePool. */
export const POOL_MODES = ["GROWING", "GUARANTEED"] as const;
export type PoolMode = typeof POOL_MODES[number];

/** The format of a contest made from a template. */
export interface ContestFormat {
  template: ContestTemplate;
  payout: Payout;
  pool: PoolMode;
  /** The operator's share of the fees of a GROWING pool, in percent (0–50). */
  operatorSharePercent: number;
  /** When the prize table was computed from the entries and stored; null before the deadline. */
  frozenAt: string | null;
}

export interface Admin {
  id: number;
  username: string;
  /** PBKDF2-SHA256 hash, base64. */
  passwordHash: string;
  /** Per-user salt, base64. */
  salt: string;
  iterations: number;
  createdAt: string;
}

export interface Team {
  id: number;
  name: string;
  shortName: string;
  league: League;
  logoUrl: string | null;
  /** The id a data provider or import file knows it by (absent when made by hand). */
  externalId?: string | null;
}

export interface Match {
  id: number;
  homeTeamId: number;
  awayTeamId: number;
  league: League;
  kickoffTime: string;
  stadium: string;
  status: MatchStatus;
  result: MatchResult;
  homeScore: number | null;
  awayScore: number | null;
  createdAt: string;
  /** When the result (both scores) was last saved; null or absent while it has none. */
  resultSavedAt?: string | null;
  /** The id a data provider or import file knows it by (absent when made by hand). */
  externalId?: string | null;
}

export interface Player {
  id: number;
  name: string;
  position: Position;
  teamId: number;
  imageUrl: string | null;
  salary: number;
  goals: number;
  assists: number;
  cleanSheets: number;
  /** The id a data provider or import file knows it by (absent when made by hand). */
  externalId?: string | null;
}

export interface Competition {
  id: number;
  name: string;
  description: string | null;
  matchId: number | null;
  league: League;
  entryFee: number;
  prizePool: number;
  prizeType: PrizeType;
  customPrizeDescription: string | null;
  currency: Currency;
  deadline: string;
  status: CompetitionStatus;
  maxEntries: number | null;
  currentEntries: number;
  imageUrl: string | null;
  maxPlayersPerTeam: number;
  maxForwards: number;
  minDefenders: number;
  salaryCap: number;
  createdAt: string;
  /** Below this many entries at the deadline the competition is cancelled and refunded. */
  minEntries?: number | null;
  /** How many entries one e-mail address may hold (absent: 1). */
  maxEntriesPerPerson?: number | null;
  /** When and why the competition was cancelled (absent or null unless CANCELLED). */
  cancelledAt?: string | null;
  cancelReason?: string | null;
  /**
   * The status follows the clock: LIVE at the match's kick-off, COMPLETED once its result was
   * saved and a grace period passed (absent: off, as for competitions made before it existed).
   */
  autoStatus?: boolean;
  /**
   * Captain and vice-captain (lib/domain/captain.ts): the captain's points count this many times
   * (1.5–3); absent or null: off.
   */
  captainMultiplier?: number | null;
  /** Made from a template: its payout and pool (absent or null: prizes set by hand). */
  format?: ContestFormat | null;
  /** Left out of the lobby, reachable only by its link (a private contest). */
  unlisted?: boolean;
  /** The round the contest spans (exclusive with `matchId`; absent or null: none). */
  roundId?: number | null;
  /**
   * Late swap (round contests): after the deadline, a pick whose match has not kicked off may
   * still be swapped for a player whose match has not kicked off (absent: off).
   */
  lateSwap?: boolean;
}

/** A round: a named set of matches (a matchday) that contests can span. */
export interface Round {
  id: number;
  name: string;
  /** Its matches, by kick-off. */
  matchIds: number[];
  createdAt: string;
}

/** An entry holds its five player ids (the entry_players rows). */
export interface Entry {
  id: number;
  competitionId: number;
  email: string;
  teamId: string;
  teamName: string;
  stripePaymentId: string;
  playerIds: number[];
  /** What the payer was charged, in minor units (absent on entries made before it was kept). */
  amountPaid?: number;
  /** The currency of `amountPaid`, lower-case ISO code. */
  currency?: string;
  /** What each pick cost in the competition when paid (absent on entries made before). */
  pickSalaries?: number[];
  /** Points as last awarded (the leaderboard computes live points from performances). */
  points: number;
  rank: number | null;
  prize: number | null;
  prizeType: PrizeType;
  customPrizeDescription: string | null;
  createdAt: string;
  /** The secret of the entry's private edit link (absent on entries made before edits existed). */
  editToken?: string;
  /** How many times the team was changed since it was paid (0 or absent: never). */
  revision?: number;
  /** When the team was last changed (absent: never). */
  editedAt?: string;
  /** When an admin refunded this one entry (it then leaves the leaderboard); absent: never. */
  refundedAt?: string;
  /** The captain and vice-captain picks (absent when the competition has no captains). */
  captainId?: number;
  viceCaptainId?: number;
}

/** The counting stats of a performance, everything scoring reads. */
export interface PerformanceStats {
  goals: number;
  assists: number;
  cleanSheet: boolean;
  yellowCards: number;
  redCard: boolean;
  saves: number;
  penaltySaves: number;
  penaltyMisses: number;
  ownGoals: number;
  minutesPlayed: number;
  goalsConceded: number;
  /** 0 or 3. */
  bonus: number;
}

export interface PlayerPerformance extends PerformanceStats {
  id: number;
  playerId: number;
  competitionId: number;
  totalPoints: number;
}

export interface PrizeStructure {
  id: number;
  competitionId: number;
  position: number;
  prize: number;
  prizeType: PrizeType;
  customPrizeDescription: string | null;
}

export interface GameEvent {
  id: number;
  competitionId: number;
  playerId: number;
  eventType: EventType;
  description: string | null;
  timestamp: string;
  minute: number | null;
}

/** The answer of POST /api/create-payment-intent. */
export interface OpenedPayment {
  clientSecret: string;
  paymentIntentId: string;
  applePayAvailable: boolean;
  mode: "test" | "stripe";
  publishableKey: string | null;
  amount: number;
  currency: string;
  /** How many entries one person may hold in the competition. */
  entriesAllowed: number;
}
