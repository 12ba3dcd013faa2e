import type { Handlers } from "$fresh/server.ts";
import { getCompetition } from "@/lib/db/competitions.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { pageId } from "@/lib/http/route_params.ts";
import { competitionCardSvg } from "@/lib/og/cards.ts";
import { competitionCard } from "@/lib/og/previews.ts";
import { canonicalRedirect, pngResponse, previewRequest } from "@/lib/og/response.ts";
import { competitionDependencies } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

/** GET /og/competition/{id}.png: the competition's link-preview image (1200×630). */
export const handler: Handlers<unknown, State> = {
  GET(req, ctx) {
    const id = pageId(ctx.params.id);
    const redirect = id === null ? null : canonicalRedirect(req, `/og/competition/${id}.png`);
    if (redirect) return redirect;
    const { cache, pngRenders } = ctx.state.services;
    return cache.answer(previewRequest(req), competitionDependencies(id), async (now) => {
      const competition = id === null ? null : await getCompetition(cache.eventualKv, id);
      if (!competition) throw new NotFoundError("Competition not found");
      return await pngResponse(pngRenders, competitionCardSvg(competitionCard(competition, now)));
    });
  },
};
