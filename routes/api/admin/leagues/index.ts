import type { Handlers } from "$fresh/server.ts";
import { leagueView, listLeagues } from "@/lib/db/leagues.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every friends' league, newest first, each with its size (`memberCount`). */
  async GET(_req, ctx) {
    return json((await listLeagues(ctx.state.services.kv)).map(leagueView));
  },
};
