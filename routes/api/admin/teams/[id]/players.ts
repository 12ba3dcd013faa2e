import type { Handlers } from "$fresh/server.ts";
import { listPlayersByTeam, withTeam } from "@/lib/db/players.ts";
import { getTeam } from "@/lib/db/teams.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The players of one team, each with its team. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const team = await getTeam(kv, parseId(ctx.params.id));
    if (!team) throw new NotFoundError("Team not found");
    return json(await withTeam(kv, await listPlayersByTeam(kv, team.id)));
  },
};
