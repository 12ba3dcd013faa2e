import type { Handlers } from "$fresh/server.ts";
import { requireCompetition } from "../../../../lib/db/competitions.ts";
import { json } from "../../../../lib/http/errors.ts";
import { parseId } from "../../../../lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** One competition; 404 when it does not exist. */
  async GET(_req, ctx) {
    return json(await requireCompetition(ctx.state.services.kv, parseId(ctx.params.id)));
  },
};
