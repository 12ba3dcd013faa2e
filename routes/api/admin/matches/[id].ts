import type { Handlers } from "$fresh/server.ts";
import { matchInputSchema } from "@/lib/domain/schemas/catalog.ts";
import { deleteMatch, getMatchWithTeams, updateMatch, withTeams } from "@/lib/db/matches.ts";
import { advanceMatchCompetitions } from "@/lib/db/status_clock.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** One match with its teams. */
  async GET(_req, ctx) {
    const match = await getMatchWithTeams(ctx.state.services.kv, parseId(ctx.params.id));
    if (!match) throw new NotFoundError("Match not found");
    return json(match);
  },
  /**
   * Replaces the match fields; result and status are recomputed from the scores (status
   * POSTPONED postpones it, with no scores), and the automatic competitions on the match follow
   * (LIVE from kick-off, COMPLETED after the result).
   */
  async PUT(req, ctx) {
    const { kv } = ctx.state.services;
    const id = parseId(ctx.params.id);
    const { result: _result, status, ...input } = await readJson(req, matchInputSchema);
    // A replacement: the match is postponed exactly when the body says so.
    const postponed = status === "POSTPONED" ? "POSTPONED" : null;
    const [match] = await withTeams(kv, [
      await updateMatch(kv, id, { ...input, status: postponed }),
    ]);
    await advanceMatchCompetitions(kv, id);
    return json(match);
  },
  /** Deletes a match; 409 naming the competitions that still use it. */
  async DELETE(_req, ctx) {
    await deleteMatch(ctx.state.services.kv, parseId(ctx.params.id));
    return json({ message: "Match deleted" });
  },
};
