import type { Handlers } from "$fresh/server.ts";
import { requireCompetition } from "../../../../lib/db/competitions.ts";
import { json } from "../../../../lib/http/errors.ts";
import { parseId } from "../../../../lib/http/validate.ts";
import { cachedAnswer, competitionDependencies } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** One competition; 404 when it does not exist. */
  GET(req, ctx) {
    const { kv } = ctx.state.services;
    const id = parseId(ctx.params.id);
    return cachedAnswer(
      req,
      kv,
      competitionDependencies(id),
      async () => json(await requireCompetition(kv, id)),
    );
  },
};
