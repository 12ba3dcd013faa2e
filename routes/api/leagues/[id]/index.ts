import type { Handlers } from "$fresh/server.ts";
import { leagueBoard } from "@/lib/api/leagues.ts";
import { getLeague } from "@/lib/db/leagues.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * The league and its live board: {league, rows, total}, each row a leaderboard row whose
   * `rank` is within the league and `contestRank` in the competition.
   */
  async GET(_req, ctx) {
    const { kv, leaderboards } = ctx.state.services;
    const league = await getLeague(kv, ctx.params.id);
    if (!league) throw new NotFoundError("League not found");
    return json(await leagueBoard(kv, leaderboards, league), {
      headers: { "cache-control": "no-cache" },
    });
  },
};
