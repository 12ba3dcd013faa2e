import type { Handlers } from "$fresh/server.ts";
import { teamInputSchema } from "../../../../lib/domain/schemas.ts";
import { createTeam, listTeams } from "../../../../lib/db/teams.ts";
import { json } from "../../../../lib/http/errors.ts";
import { readJson } from "../../../../lib/http/validate.ts";
import { services } from "../../../../lib/services.ts";

export const handler: Handlers = {
  /** Every team, by name. */
  async GET() {
    return json(await listTeams(services().kv));
  },
  /** Creates a team: {name, shortName, league, logoUrl}. */
  async POST(req) {
    const input = await readJson(req, teamInputSchema);
    return json(await createTeam(services().kv, input), { status: 201 });
  },
};
