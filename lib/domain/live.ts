/**
 * Shapes shared by the leaderboard API, the live push and the leaderboard island, and the
 * competition fields the leaderboard reads. Pure: safe to import from islands.
 */
import { type PoolFields, shownPrizePool } from "./formats.ts";
import type {
  CompetitionStatus,
  Currency,
  EventType,
  MatchStatus,
  PrizeType,
} from "@/lib/domain/types.ts";

/** One leaderboard row as the API and the page show it (never an e-mail or payment id). */
export interface LeaderboardRow {
  id: number;
  teamId: string;
  teamName: string;
  displayName: string;
  points: number;
  rank: number;
  /** Money won, once the competition is COMPLETED (0 without a prize); null before. */
  prize: number | null;
  prizeType: PrizeType;
  /** NON_CASH and COMPLETED: the description of the prize place won; otherwise null. */
  customPrizeDescription: string | null;
  /**
   * The names of the entry's captain and vice-captain: only in competitions with captains once
   * they kicked off (absent otherwise, so rows without captains are as before).
   */
  captainName?: string;
  viceCaptainName?: string;
  /**
   * The acting captain (lib/domain/captain.ts), whose points count the multiplier now: his name
   * and "C" (the captain) or "V" (the vice-captain, who took over). Only in competitions with
   * captains, once his match kicked off.
   */
  actingCaptainName?: string;
  actingCaptainRole?: "C" | "V";
  /**
   * How many of the team's picks are still to play: their match has not kicked off or is in play
   * (lib/domain/match_clock.ts; a postponed match's picks are not). Once the contest started.
   */
  picksToPlay?: number;
}

/** A game event with what the events list shows of its player. */
export interface LiveEvent {
  id: number;
  competitionId: number;
  playerId: number;
  eventType: EventType | string;
  description: string | null;
  timestamp: string;
  minute: number | null;
  player: { id?: number; name: string; team: { shortName: string } | null } | null;
}

/** The match of a competition as the leaderboard header shows it: the clubs and the score. */
export interface Fixture {
  homeTeam: { name: string; shortName: string; logoUrl: string | null };
  awayTeam: { name: string; shortName: string; logoUrl: string | null };
  kickoffTime: string;
  status: MatchStatus;
  homeScore: number | null;
  awayScore: number | null;
}

/** The competition's match as the team builder shows it beside each player. */
export interface BuilderFixture {
  homeTeamId: number;
  awayTeamId: number;
  homeShortName: string;
  awayShortName: string;
  kickoffTime: string;
  /** The match (round contests: the builder filters by it and locks picks at its kick-off). */
  matchId?: number;
  /** The match's status (a kick-off reported early locks its players). */
  status?: MatchStatus;
}

/** "ARS v CHE": a round's fixture as a row names it. */
export function fixtureText(f: Pick<BuilderFixture, "homeShortName" | "awayShortName">): string {
  return `${f.homeShortName} v ${f.awayShortName}`;
}

/** The fixture of `fixtures` club `clubId` plays in, or null. */
export function fixtureOfClub(
  fixtures: readonly BuilderFixture[] | null | undefined,
  clubId: number,
): BuilderFixture | null {
  return fixtures?.find((f) => f.homeTeamId === clubId || f.awayTeamId === clubId) ?? null;
}

/**
 * A player's opponent in the competition's match: "v CHE (H)" for the home club, "v ARS (A)"
 * for the away one; null for a club outside the match.
 */
export function opponentText(
  fixture: BuilderFixture | null | undefined,
  clubId: number,
): string | null {
  if (!fixture) return null;
  if (clubId === fixture.homeTeamId) return `v ${fixture.awayShortName} (H)`;
  if (clubId === fixture.awayTeamId) return `v ${fixture.homeShortName} (A)`;
  return null;
}

/** The competition fields the leaderboard page reads. */
export interface LeaderboardCompetition {
  id: number;
  name: string;
  status: CompetitionStatus;
  prizePool: number;
  prizeType: PrizeType;
  customPrizeDescription: string | null;
  currency: Currency;
  /** The competition's match, when it has one (absent in older answers). */
  fixture?: Fixture | null;
  /** Why it was cancelled (CANCELLED only). */
  cancelReason?: string | null;
  /** The captain multiplier when teams have captains (lib/domain/captain.ts); null: none. */
  captainMultiplier?: number | null;
}

/** Messages the server sends on /ws. */
export type LiveServerMessage =
  | { type: "game_events_update"; competitionId: number; data: LiveEvent[] }
  | { type: "leaderboard_update"; competitionId: number }
  | { type: "error"; message: string }
  | { type: "ping" }
  | { type: "pong" };

/**
 * The match clock as a football scoreboard shows it, from the kick-off and the minute of the
 * latest event: "23'", "45+'", "HT", "67'", "90+'". The clock assumes a 15-minute half-time
 * after 45 minutes plus 2 of stoppage; a later event minute moves it on. Null before kick-off.
 * @example matchMinute("2030-01-01T15:00:00Z", new Date("2030-01-01T15:22:10Z"), null) // "23'"
 */
export function matchMinute(
  kickoffTime: string,
  now: Date,
  lastEventMinute: number | null,
): string | null {
  const elapsed = Math.floor((now.getTime() - new Date(kickoffTime).getTime()) / 60_000);
  if (!(elapsed >= 0)) return null;
  let clock: number | "HT";
  if (elapsed < 45) clock = elapsed + 1;
  else if (elapsed < 47) clock = 45;
  else if (elapsed < 62) clock = "HT";
  else clock = Math.min(90, elapsed - 62 + 46);
  const event = lastEventMinute ?? 0;
  if (clock === "HT") return event > 45 ? minuteText(event) : "HT";
  return minuteText(Math.max(clock, event));
}

function minuteText(minute: number): string {
  if (minute >= 90) return "90+'";
  if (minute === 45) return "45+'";
  return `${minute}'`;
}

/** The leaderboard fields of a competition record. */
export function pickCompetition(
  c: LeaderboardCompetition & Omit<PoolFields, "prizePool">,
): LeaderboardCompetition {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    // A growing pool as it stands until the deadline freezes it.
    prizePool: shownPrizePool(c),
    prizeType: c.prizeType,
    customPrizeDescription: c.customPrizeDescription,
    currency: c.currency,
    fixture: c.fixture ?? null,
    cancelReason: c.cancelReason ?? null,
    captainMultiplier: c.captainMultiplier ?? null,
  };
}

/** One of the visitor's entries as My entries shows it. */
export interface EntrySummary {
  teamId: string;
  displayName: string;
  createdAt: string;
  competition: {
    id: number;
    name: string;
    status: CompetitionStatus;
    currency: Currency;
    prizeType: PrizeType;
    deadline: string;
  };
  /** Points and rank once the competition is LIVE or COMPLETED; null before. */
  points: number | null;
  rank: number | null;
  /** Money won once COMPLETED; null before. */
  prize: number | null;
  /** NON_CASH: the description of the prize won. */
  prizeDescription: string | null;
  /** True once the entry fee went back (a cancelled competition), or once an admin refunded the entry on its own. */
  refunded: boolean;
  /** Who entered it, masked ("j***@example.com"): shown before adding it from a link. */
  maskedEmail?: string;
  /** A won prize: "owed", "claimed", "paid" or "unclaimed"; null when nothing was won. */
  prizeState?: "owed" | "claimed" | "paid" | "unclaimed" | null;
}
