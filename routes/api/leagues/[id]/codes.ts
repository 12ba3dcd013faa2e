import type { Handlers } from "$fresh/server.ts";
import { entryOfTeam, sendJoinCode } from "@/lib/api/leagues.ts";
import { linkOrigin } from "@/lib/config.ts";
import { getLeague } from "@/lib/db/leagues.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { leagueCodeSchema } from "@/lib/domain/schemas/leagues.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {teamId} → 202 {message}: a 6-digit code to join this league goes to that entry's own
   * address (never shown here). 404 for an unknown league or team ID, 409 when already in, 429
   * past the codes an address may get in an hour.
   */
  async POST(req, ctx) {
    const deps = ctx.state.services;
    const { teamId } = await readJson(req, leagueCodeSchema);
    const league = await getLeague(deps.kv, ctx.params.id);
    if (!league) throw new NotFoundError("League not found");
    const entry = await entryOfTeam(deps.kv, teamId);
    const message = await sendJoinCode(deps, league, entry, linkOrigin(deps.config));
    return json({ message }, { status: 202 });
  },
};
