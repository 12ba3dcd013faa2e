import type { Handlers } from "$fresh/server.ts";
import { listCompetitions } from "../../../lib/db/competitions.ts";
import { json } from "../../../lib/http/errors.ts";
import { services } from "../../../lib/services.ts";

export const handler: Handlers = {
  /** Every competition, sorted by deadline ascending. */
  async GET() {
    return json(await listCompetitions(services().kv));
  },
};
