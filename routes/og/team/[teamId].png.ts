import type { Handlers } from "$fresh/server.ts";
import { getEntryByTeamId } from "@/lib/db/entries.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { teamCardSvg } from "@/lib/og/cards.ts";
import { teamCard } from "@/lib/og/previews.ts";
import { canonicalRedirect, pngResponse, previewRequest } from "@/lib/og/response.ts";
import { competitionDependencies } from "@/lib/render_cache.ts";
import type { State } from "@/lib/services.ts";

/** GET /og/team/{teamId}.png: a team's link-preview image, its five players with live points. */
export const handler: Handlers<unknown, State> = {
  async GET(req, ctx) {
    const { teamId } = ctx.params;
    const redirect = canonicalRedirect(req, `/og/team/${encodeURIComponent(teamId)}.png`);
    if (redirect) return redirect;
    const { cache, leaderboards, pngRenders } = ctx.state.services;
    const entry = await getEntryByTeamId(cache.eventualKv, teamId);
    if (!entry) throw new NotFoundError("Team not found");
    const deps = competitionDependencies(entry.competitionId); // points move the live marker
    return cache.answer(previewRequest(req), deps, async () => {
      const card = await teamCard(cache.eventualKv, leaderboards, entry.teamId);
      if (!card) throw new NotFoundError("Team not found");
      return await pngResponse(pngRenders, teamCardSvg(card));
    });
  },
};
