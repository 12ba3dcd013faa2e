import type { Handlers } from "$fresh/server.ts";
import { entryOfTeam, sendJoinCode } from "@/lib/api/leagues.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { linkOrigin } from "@/lib/config.ts";
import { getLeague } from "@/lib/db/leagues.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { leagueCodeSchema } from "@/lib/domain/schemas/leagues.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import { requesterNetwork } from "@/lib/net/public_url.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {teamId} → 202 {message}: a 6-digit code to join this league goes to that entry's own
   * address (neither it nor any part of it shown here). 404 for an unknown league or team ID,
   * 409 when already in, 429 past the codes an address may get, or a requester ask, in an hour.
   */
  async POST(req, ctx) {
    const deps = ctx.state.services;
    const { teamId } = await readJson(req, leagueCodeSchema);
    const league = await getLeague(deps.kv, ctx.params.id);
    if (!league) throw new NotFoundError("League not found");
    const entry = await entryOfTeam(deps.kv, teamId);
    const ip = clientIp(ctx);
    const requester = ip === null ? null : requesterNetwork(ip);
    const message = await sendJoinCode(deps, league, entry, linkOrigin(deps.config), requester);
    return json({ message }, { status: 202 });
  },
};
