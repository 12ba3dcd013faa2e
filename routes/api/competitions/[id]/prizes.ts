import type { Handlers } from "$fresh/server.ts";
import { requireCompetition } from "@/lib/db/competitions.ts";
import { listPrizes } from "@/lib/db/prizes.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import { competitionDependencies } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The prize structure of a competition, by position. */
  GET(req, ctx) {
    const { cache } = ctx.state.services;
    const kv = cache.eventualKv; // public and kept: a replica's read will do
    const cid = parseId(ctx.params.id);
    return cache.answer(req, competitionDependencies(cid), async () => {
      const competition = await requireCompetition(kv, cid);
      const prizes = await listPrizes(kv, competition.id);
      return json(prizes.map(({ id, position, prize, prizeType, customPrizeDescription }) => ({
        id,
        position,
        prize,
        prizeType,
        customPrizeDescription,
      })));
    });
  },
};
