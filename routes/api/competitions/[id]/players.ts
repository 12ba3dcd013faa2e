import type { Handlers } from "$fresh/server.ts";
import { listCompetitionPlayers } from "@/lib/db/competition_players.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import { competitionDependencies } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The players of a competition, each with its team, by salary descending. */
  GET(req, ctx) {
    const { cache } = ctx.state.services;
    const kv = cache.eventualKv; // public and kept: a replica's read will do
    const id = parseId(ctx.params.id);
    return cache.answer(req, competitionDependencies(id), async () => {
      const competition = await requireCompetition(kv, id);
      return json(await listCompetitionPlayers(kv, competition.id));
    });
  },
};
