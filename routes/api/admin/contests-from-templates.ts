import type { Handlers } from "$fresh/server.ts";
import { adminCompetitionRow } from "@/lib/api/views.ts";
import { createContestsFromTemplates } from "@/lib/db/contest_formats.ts";
import { contestsFromTemplatesSchema } from "@/lib/domain/schemas/contest_formats.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * Makes one competition per template for a match or a round ("Create contests for this
   * round"); 201 with the competitions. Bad input is a 400 naming the field and creates nothing.
   */
  async POST(req, ctx) {
    const input = await readJson(req, contestsFromTemplatesSchema);
    const created = await createContestsFromTemplates(ctx.state.services.kv, input);
    return json(created.map(adminCompetitionRow), { status: 201 });
  },
};
