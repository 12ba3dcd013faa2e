import type { Handlers } from "$fresh/server.ts";
import { fixtureView, publicCompetition } from "@/lib/api/views.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { getMatchWithTeams } from "@/lib/db/matches.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import { competitionWithFixture } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** One competition with its fixture (the match's clubs and score, or null); 404 if unknown. */
  GET(req, ctx) {
    const { cache } = ctx.state.services;
    const kv = cache.eventualKv; // public and kept: a replica's read will do
    const id = parseId(ctx.params.id);
    return cache.answer(req, competitionWithFixture(id), async () => {
      const competition = await requireCompetition(kv, id);
      const match = competition.matchId === null
        ? null
        : await getMatchWithTeams(kv, competition.matchId);
      return json({ ...publicCompetition(competition), fixture: match && fixtureView(match) });
    });
  },
};
