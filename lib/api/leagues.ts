/**
 * What the league routes share: who may use an entry (this browser's edit secret), the
 * per-person limits, the join-code e-mail, and a league's live board, read from the same
 * standings as the contest's leaderboard (so an entry that leaves the contest, e.g. refunded,
 * leaves its leagues' boards too).
 */
import { getCompetition } from "@/lib/db/competitions.ts";
import { getEntryByEditToken } from "@/lib/db/entry_edits.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { createJoinCode, type League, leagueView, listLeagueMembers } from "@/lib/db/leagues.ts";
import { deliverOutboxMessage, mailerDelivers } from "@/lib/db/outbox.ts";
import { hitRateLimits, type RateLimit, undoHits } from "@/lib/db/rate_limits.ts";
import { fieldError, NotFoundError, TooManyRequestsError } from "@/lib/domain/errors.ts";
import {
  JOIN_CODE_MINUTES,
  JOIN_CODE_REQUESTS_PER_HOUR,
  JOIN_CODES_PER_HOUR,
  leagueRanks,
  type LeagueRow,
  type LeagueView,
} from "@/lib/domain/leagues.ts";
import type { Entry } from "@/lib/domain/types.ts";
import type { LeaderboardCache } from "@/lib/live/leaderboard_cache.ts";
import type { Mailer } from "@/lib/domain/mail.ts";

const HOUR_MS = 60 * 60_000;

/**
 * The entry `teamId` when `editToken` is its edit link's secret (what this browser keeps for
 * the entries it paid for); 400 otherwise, saying so.
 */
export async function ownedEntry(kv: Deno.Kv, teamId: string, editToken: string): Promise<Entry> {
  const entry = await getEntryByEditToken(kv, editToken);
  if (!entry || entry.teamId !== teamId) {
    throw fieldError("editToken", "This browser does not hold the edit link of this entry.");
  }
  return entry;
}

/** The entry of a team ID, or 404. */
export async function entryOfTeam(kv: Deno.Kv, teamId: string): Promise<Entry> {
  const entry = await getEntryByTeamId(kv, teamId);
  if (!entry) throw new NotFoundError(`No entry has the team ID ${teamId}.`);
  return entry;
}

/**
 * Counts one hit of `person` (an e-mail address, lower case) against `limit` per hour and runs
 * `work`; a full limit is a 429 naming the wait, and a `work` that throws takes its hit back
 * (only what was done counts).
 */
export async function perPersonHourly<T>(
  kv: Deno.Kv,
  bucket: string,
  person: string,
  limit: number,
  what: string,
  work: () => Promise<T>,
): Promise<T> {
  const limits: RateLimit[] = [{
    bucket,
    client: person.trim().toLowerCase(),
    limit,
    windowMs: HOUR_MS,
  }];
  const rate = await hitRateLimits(kv, limits);
  if (!rate.allowed) {
    const minutes = Math.ceil(rate.retryAfterSeconds / 60);
    throw new TooManyRequestsError(
      `${what}: at most ${limit} an hour. Please try again in ${minutes} minute${
        minutes === 1 ? "" : "s"
      }.`,
      rate.retryAfterSeconds,
    );
  }
  try {
    return await work();
  } catch (err) {
    await undoHits(kv, limits, rate.at);
    throw err;
  }
}

/** The join-code e-mail's subject: fixed, since the league's name is whatever its maker typed. */
export const JOIN_CODE_SUBJECT = "Your code to join a league";
/** What the requester is told: nothing of the address the code went to. */
export const JOIN_CODE_SENT = "We have e-mailed a 6-digit code to the address of this entry. " +
  `It works for ${JOIN_CODE_MINUTES} minutes.`;

/**
 * E-mails a join code for `entry` to its own address (outbox, handed to SMTP at once when one is
 * configured): at most JOIN_CODES_PER_HOUR per address, and JOIN_CODE_REQUESTS_PER_HOUR asked
 * by one `requester` (the client's address; null when unknown). Answers the message to show.
 */
export async function sendJoinCode(
  deps: { kv: Deno.Kv; mailer: Mailer },
  league: League,
  entry: Entry,
  origin: string,
  requester: string | null,
): Promise<string> {
  const { kv, mailer } = deps;
  const competition = await getCompetition(kv, league.competitionId);
  const send = () =>
    perPersonHourly(
      kv,
      "league_codes",
      entry.email,
      JOIN_CODES_PER_HOUR,
      "Too many league codes for this entry's address",
      () =>
        createJoinCode(kv, league.id, entry, (code) => ({
          to: entry.email,
          subject: JOIN_CODE_SUBJECT,
          text: [
            // The league's name is the requester's text: quoted (JSON-escaped), never bare.
            `Someone asked to add your team ${entry.teamName} (${entry.teamId}) to the league ` +
            `${JSON.stringify(league.name)} of ${competition?.name ?? "a contest"}.`,
            "",
            `Your code: ${code}`,
            "",
            `It works for ${JOIN_CODE_MINUTES} minutes on ${origin}/leagues/${league.id}.`,
            "No money moves in a league. If you did not ask for this, ignore this e-mail.",
          ].join("\n"),
        }), { deliver: mailerDelivers(mailer) }),
    );
  const outboxId = requester === null ? await send() : await perPersonHourly(
    kv,
    "league_code_requests",
    requester,
    JOIN_CODE_REQUESTS_PER_HOUR,
    "Too many league codes asked from this network",
    send,
  );
  if (mailerDelivers(mailer)) {
    // A failed hand-over stays marked: the outbox job retries it.
    await deliverOutboxMessage(kv, mailer, outboxId).catch(() => false);
  }
  return JOIN_CODE_SENT;
}

/** A league's board: its members ranked among themselves, each with its contest rank. */
export interface LeagueBoard {
  league: LeagueView;
  rows: LeagueRow[];
  total: number;
}

/** The live board of `league` from the contest's current standings. */
export async function leagueBoard(
  kv: Deno.Kv,
  leaderboards: LeaderboardCache,
  league: League,
): Promise<LeagueBoard> {
  const [members, standings] = await Promise.all([
    listLeagueMembers(kv, league.id),
    leaderboards.standings(league.competitionId),
  ]);
  const rows = standings
    ? leagueRanks(standings.rowsForEntries(members.map((m) => m.entryId)))
    : [];
  return { league: leagueView(league), rows, total: rows.length };
}
