import type { Handlers } from "$fresh/server.ts";
import { teamInputSchema } from "@/lib/domain/schemas/catalog.ts";
import { createTeam, listTeams } from "@/lib/db/teams.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every team, by name. */
  async GET(_req, ctx) {
    return json(await listTeams(ctx.state.services.kv));
  },
  /** Creates a team: {name, shortName, league, logoUrl}. */
  async POST(req, ctx) {
    const input = await readJson(req, teamInputSchema);
    return json(await createTeam(ctx.state.services.kv, input), { status: 201 });
  },
};
