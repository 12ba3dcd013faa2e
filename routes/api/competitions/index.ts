import type { Handlers } from "$fresh/server.ts";
import { listCompetitions } from "../../../lib/db/competitions.ts";
import { json } from "../../../lib/http/errors.ts";
import { cachedAnswer, COMPETITION_LIST } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every competition, sorted by deadline ascending. */
  GET(req, ctx) {
    const { kv } = ctx.state.services;
    return cachedAnswer(req, kv, COMPETITION_LIST, async () => json(await listCompetitions(kv)));
  },
};
