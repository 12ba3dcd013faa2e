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

/** What the admin action gives: the match, the shared fee and (optionally) deadline, the templates. */
export interface TemplatesRequest {
  matchId: number;
  entryFee: number;
  currency?: Competition["currency"];
  /** Absent: the match's kick-off. */
  deadline?: string;
  templates: TemplateSpec[];
}

/** The match and the base of its contests: its clubs' names, its league and kick-off. */
async function matchBase(
  kv: Deno.Kv,
  req: TemplatesRequest,
): Promise<{ match: Match; base: ContestBase }> {
  const match = (await kv.get<Match>(keys.match(req.matchId))).value;
  if (!match) throw fieldError("matchId", `Match ${req.matchId} does not exist.`);
  const [home, away] = await Promise.all([
    getTeam(kv, match.homeTeamId),
    getTeam(kv, match.awayTeamId),
  ]);
  const deadline = req.deadline ?? match.kickoffTime;
  if (!(Date.parse(deadline) > Date.now())) {
    throw fieldError("deadline", "The deadline has passed: give a later one");
  }
  return {
    match,
    base: {
      matchId: match.id,
      title: `${home?.name ?? "Home"} v ${away?.name ?? "Away"}`,
      league: match.league,
      deadline: new Date(deadline).toISOString(),
      entryFee: req.entryFee,
      currency: req.currency ?? "USD",
    },
  };
}

/**
 * Creates one competition per template for a match, each offering the players of the match's two
 * clubs and following the clock (LIVE at kick-off), with its starting prize table. Every template
 * is checked before the first is created, so bad input creates nothing; should a later creation
 * fail all the same (the match deleted meanwhile), the ones already made, still without entries,
 * are deleted again.
 * @example await createContestsFromTemplates(kv, { matchId: 3, entryFee: 5, templates: [{ format: "HEAD_TO_HEAD" }] })
 */
export async function createContestsFromTemplates(
  kv: Deno.Kv,
  req: TemplatesRequest,
): Promise<Competition[]> {
  const { match, base } = await matchBase(kv, req);
  const plans = competitionsFromTemplates(base, req.templates);
  const clubs = [match.homeTeamId, match.awayTeamId];
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
