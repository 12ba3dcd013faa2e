import type { Handlers } from "$fresh/server.ts";
import { listPlayersByTeam, withTeam } from "../../../../../lib/db/players.ts";
import { getTeam } from "../../../../../lib/db/teams.ts";
import { json, NotFoundError } from "../../../../../lib/http/errors.ts";
import { parseId } from "../../../../../lib/http/validate.ts";
import { services } from "../../../../../lib/services.ts";

export const handler: Handlers = {
  /** The players of one team, each with its team. */
  async GET(_req, ctx) {
    const { kv } = services();
    const team = await getTeam(kv, parseId(ctx.params.id));
    if (!team) throw new NotFoundError("Team not found");
    return json(await withTeam(kv, await listPlayersByTeam(kv, team.id)));
  },
};
