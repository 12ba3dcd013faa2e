import type { Handlers } from "$fresh/server.ts";
import { listAvailablePlayers } from "@/lib/db/competition_players.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every player not yet in the competition, with team, by salary descending. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const competition = await requireCompetition(kv, parseId(ctx.params.id));
    return json(await listAvailablePlayers(kv, competition.id));
  },
};
