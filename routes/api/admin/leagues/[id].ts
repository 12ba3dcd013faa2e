import type { Handlers } from "$fresh/server.ts";
import { deleteLeague } from "@/lib/db/leagues.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Removes a league and its memberships (its entries stay in the contest); 404 when unknown. */
  async DELETE(_req, ctx) {
    const league = await deleteLeague(ctx.state.services.kv, ctx.params.id);
    return json({ message: `League "${league.name}" removed` });
  },
};
