/**
 * The JSON shapes the API answers with where they differ from the stored records: public entry
 * views (no full e-mail, no payment id) and admin competition rows with their entry statistics.
 */
import { competitionRevenue } from "@/lib/domain/competition.ts";
import { shownPrizePool } from "@/lib/domain/formats.ts";
import type { Competition, Entry, Team } from "@/lib/domain/types.ts";
import type { MatchWithTeams } from "@/lib/db/matches.ts";
import type { Fixture } from "@/lib/domain/live.ts";
import { maskEmail } from "@/lib/domain/format.ts";

export { maskEmail };

/** A payment id reduced to its last four characters: `pi_3Nab…wxyz` → `****wxyz`. */
export function maskPaymentId(id: string): string {
  return id ? `****${id.slice(-4)}` : "";
}

/** The public view of an entry (GET /api/entries/{teamId}). */
export function publicEntry(entry: Entry) {
  return {
    id: entry.id,
    teamId: entry.teamId,
    competitionId: entry.competitionId,
    teamName: entry.teamName,
    points: entry.points,
    rank: entry.rank,
    prize: entry.prize,
    prizeType: entry.prizeType,
    customPrizeDescription: entry.customPrizeDescription,
    createdAt: entry.createdAt,
  };
}

/**
 * The answer of POST /api/entries, to the payer: the public view plus the masked e-mail, the
 * picks and the secret of the entry's private edit link.
 */
export function createdEntryView(entry: Entry) {
  return {
    ...publicEntry(entry),
    email: maskEmail(entry.email),
    playerIds: entry.playerIds,
    captainId: entry.captainId ?? null,
    viceCaptainId: entry.viceCaptainId ?? null,
    editToken: entry.editToken ?? null,
  };
}

/** A competition as visitors get it: a growing pool as it stands until the deadline freezes it. */
export function publicCompetition<C extends Competition>(competition: C): C {
  return { ...competition, prizePool: shownPrizePool(competition) };
}

/**
 * An admin competition row: the record plus its paid entries and the revenue they brought
 * (none for a cancelled competition: every entry was refunded).
 */
export function adminCompetitionRow(competition: Competition) {
  return {
    ...competition,
    entries: competition.currentEntries,
    revenue: competitionRevenue(competition),
  };
}

function clubView(team: Team | null) {
  return {
    name: team?.name ?? "Unknown club",
    shortName: team?.shortName ?? "?",
    logoUrl: team?.logoUrl ?? null,
  };
}

/** A competition's match as the public pages show it: the two clubs and the score. */
export function fixtureView(match: MatchWithTeams): Fixture {
  return {
    homeTeam: clubView(match.homeTeam),
    awayTeam: clubView(match.awayTeam),
    kickoffTime: match.kickoffTime,
    status: match.status,
    homeScore: match.homeScore,
    awayScore: match.awayScore,
  };
}
