import type { Handlers } from "$fresh/server.ts";
import { adminCompetitionRow } from "@/lib/api/views.ts";
import { createContestsFromTemplates } from "@/lib/db/contest_formats.ts";
import { fieldError } from "@/lib/domain/errors.ts";
import { contestsFromTemplatesSchema } from "@/lib/domain/schemas/contest_formats.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * Makes one competition per template for a match ("Create contests for this match"); 201 with
   * the competitions. Bad input is a 400 naming the field and creates nothing.
   */
  async POST(req, ctx) {
    const { matchId, roundId, ...input } = await readJson(req, contestsFromTemplatesSchema);
    if (matchId === undefined) {
      // Rounds are another piece of work; until they exist a round cannot be found.
      throw fieldError("roundId", `Round ${roundId} does not exist.`);
    }
    const created = await createContestsFromTemplates(ctx.state.services.kv, {
      ...input,
      matchId,
    });
    return json(created.map(adminCompetitionRow), { status: 201 });
  },
};
