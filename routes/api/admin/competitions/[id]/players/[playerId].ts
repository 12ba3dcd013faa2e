import type { Handlers } from "$fresh/server.ts";
import { competitionSalarySchema } from "@/lib/domain/schemas/catalog.ts";
import { setCompetitionPlayerSalary } from "@/lib/db/competition_players.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Sets what the player costs in this competition only: {salary}. */
  async PATCH(req, ctx) {
    const cid = parseId(ctx.params.id);
    const playerId = parseId(ctx.params.playerId, "playerId");
    const { salary } = await readJson(req, competitionSalarySchema);
    return json(await setCompetitionPlayerSalary(ctx.state.services.kv, cid, playerId, salary));
  },
};
