import type { Handlers } from "$fresh/server.ts";
import { listCompetitions } from "../../../lib/db/competitions.ts";
import { json } from "../../../lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Every competition, sorted by deadline ascending. */
  async GET(_req, ctx) {
    return json(await listCompetitions(ctx.state.services.kv));
  },
};
