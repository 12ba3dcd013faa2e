import type { Handlers } from "$fresh/server.ts";
import { editableEntry, editView, saveTeamEdit } from "@/lib/api/team_edits.ts";
import { teamEditSchema } from "@/lib/domain/schemas/public.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The team behind a private edit link: picks, name, revision, and why it is locked (or null). */
  async GET(_req, ctx) {
    return json(editView(await editableEntry(ctx.state.services.kv, ctx.params.token)));
  },
  /**
   * {teamName, playerIds, revision, captainId?, viceCaptainId?} → the changed entry (404 unknown
   * link; 409 locked, changed meanwhile, or the payer's other team; 400 picks, name or captains).
   */
  async PUT(req, ctx) {
    const edit = await readJson(req, teamEditSchema);
    return json(await saveTeamEdit(ctx.state.services.kv, ctx.params.token, edit));
  },
};
