/**
 * Contests made from templates (lib/domain/formats.ts): created in one go for a match, and the
 * job that freezes their prize tables once their deadline passed (lib/db/pool_freeze.ts).
 */
import {
  competitionsFromTemplates,
  type ContestBase,
  type TemplateSpec,
} from "@/lib/domain/formats.ts";
import type { Competition, Match } from "@/lib/domain/types.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { keys } from "@/lib/store/keys.ts";
import { addCompetitionPlayers } from "./competition_players.ts";
import { createCompetition, deleteCompetition, listCompetitions } from "./competitions.ts";
import { listPlayersByTeam } from "./players.ts";
import { setPrizeStructure } from "./prizes.ts";
import { getTeam } from "./teams.ts";
import { freezeContestPool } from "./pool_freeze.ts";
import { getRound, roundMatches } from "./rounds.ts";

/**
 * What the admin action gives: the match or the round (one of them), the shared fee and
 * (optionally) deadline, the templates.
 */
export interface TemplatesRequest {
  matchId?: number;
  roundId?: number;
  entryFee: number;
  currency?: Competition["currency"];
  /** Absent: the match's kick-off, or the round's first. */
  deadline?: string;
  templates: TemplateSpec[];
}

/** A base's deadline: the one given, else `kickoff`; refused once passed. */
function deadlineOf(req: TemplatesRequest, kickoff: string): string {
  const deadline = req.deadline ?? kickoff;
  if (!(Date.parse(deadline) > Date.now())) {
    throw fieldError("deadline", "The deadline has passed: give a later one");
  }
  return new Date(deadline).toISOString();
}

/**
 * The round and the base of its contests: the round's name, the league most of its matches are
 * in, its first kick-off; the clubs of all its matches.
 */
async function roundBase(
  kv: Deno.Kv,
  req: TemplatesRequest & { roundId: number },
): Promise<{ clubs: number[]; base: ContestBase }> {
  const round = await getRound(kv, req.roundId);
  if (!round) throw fieldError("roundId", `Round ${req.roundId} does not exist.`);
  const matches = await roundMatches(kv, round);
  if (matches.length === 0) throw fieldError("roundId", `Round ${round.name} has no matches.`);
  const first = matches.reduce((a, b) =>
    Date.parse(b.kickoffTime) < Date.parse(a.kickoffTime) ? b : a
  );
  const leagues = new Map<Match["league"], number>();
  for (const m of matches) leagues.set(m.league, (leagues.get(m.league) ?? 0) + 1);
  const league = [...leagues.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return {
    clubs: matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]),
    base: {
      roundId: round.id,
      title: round.name,
      league,
      deadline: deadlineOf(req, first.kickoffTime),
      entryFee: req.entryFee,
      currency: req.currency ?? "USD",
    },
  };
}

/** The match and the base of its contests: its clubs' names, its league and kick-off. */
async function matchBase(
  kv: Deno.Kv,
  req: TemplatesRequest & { matchId: number },
): Promise<{ clubs: number[]; base: ContestBase }> {
  const match = (await kv.get<Match>(keys.match(req.matchId))).value;
  if (!match) throw fieldError("matchId", `Match ${req.matchId} does not exist.`);
  const [home, away] = await Promise.all([
    getTeam(kv, match.homeTeamId),
    getTeam(kv, match.awayTeamId),
  ]);
  return {
    clubs: [match.homeTeamId, match.awayTeamId],
    base: {
      matchId: match.id,
      title: `${home?.name ?? "Home"} v ${away?.name ?? "Away"}`,
      league: match.league,
      deadline: deadlineOf(req, match.kickoffTime),
      entryFee: req.entryFee,
      currency: req.currency ?? "USD",
    },
  };
}

/**
 * Creates one competition per template for a match or a round ("Create contests for this round"),
 * each offering the players of its clubs and following the clock (LIVE at the first kick-off),
 * with its starting prize table. Every template
 * is checked before the first is created, so bad input creates nothing; should a later creation
 * fail all the same (the match deleted meanwhile), the ones already made, still without entries,
 * are deleted again.
 * @example await createContestsFromTemplates(kv, { matchId: 3, entryFee: 5, templates: [{ format: "HEAD_TO_HEAD" }] })
 */
export async function createContestsFromTemplates(
  kv: Deno.Kv,
  req: TemplatesRequest,
): Promise<Competition[]> {
  const { clubs, base } = req.roundId !== undefined
    ? await roundBase(kv, { ...req, roundId: req.roundId })
    : await matchBase(kv, { ...req, matchId: req.matchId ?? 0 });
  const plans = competitionsFromTemplates(base, req.templates);
  const playerIds = (await Promise.all(clubs.map((club) => listPlayersByTeam(kv, club))))
    .flat().map((p) => p.id);
  const created: Competition[] = [];
  try {
    for (const plan of plans) {
      const competition = await createCompetition(kv, { ...plan.competition, autoStatus: true });
      created.push(competition);
      if (playerIds.length > 0) await addCompetitionPlayers(kv, competition.id, playerIds);
      if (plan.prizes.length > 0) await setPrizeStructure(kv, competition.id, plan.prizes);
    }
  } catch (err) {
    await Promise.allSettled(created.map((c) => deleteCompetition(kv, c.id)));
    throw err;
  }
  return created;
}

/**
 * The job: freezes every template contest whose deadline passed (see freezeContestPool).
 * Idempotent; returns how many it froze.
 */
export async function freezeDuePools(kv: Deno.Kv, now = new Date()): Promise<number> {
  let frozen = 0;
  for (const c of await listCompetitions(kv)) {
    if (!c.format || c.format.frozenAt || Date.parse(c.deadline) > now.getTime()) continue;
    if (await freezeContestPool(kv, c.id, now)) frozen++;
  }
  return frozen;
}
