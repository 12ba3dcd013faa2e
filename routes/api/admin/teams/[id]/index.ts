import type { Handlers } from "$fresh/server.ts";
import { teamInputSchema } from "@/lib/domain/schemas/catalog.ts";
import { deleteTeam, updateTeam } from "@/lib/db/teams.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Edits a club: {name, shortName, league, logoUrl}. */
  async PUT(req, ctx) {
    const id = parseId(ctx.params.id);
    const input = await readJson(req, teamInputSchema);
    return json(await updateTeam(ctx.state.services.kv, id, input));
  },
  /** Deletes a club without players or matches (409 saying what still uses it). */
  async DELETE(_req, ctx) {
    await deleteTeam(ctx.state.services.kv, parseId(ctx.params.id));
    return json({ message: "Club deleted" });
  },
};
