import type { Handlers } from "$fresh/server.ts";
import { publicCompetition } from "@/lib/api/views.ts";
import { listPublicCompetitions } from "@/lib/db/competitions.ts";
import { json } from "@/lib/http/errors.ts";
import { PUBLIC_COMPETITION_LIST } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The competitions visitors can see (see listPublicCompetitions), by deadline ascending. */
  GET(req, ctx) {
    const { cache } = ctx.state.services;
    const kv = cache.eventualKv; // public and kept: a replica's read will do
    return cache.answer(
      req,
      PUBLIC_COMPETITION_LIST,
      async () => json((await listPublicCompetitions(kv)).map(publicCompetition)),
    );
  },
};
