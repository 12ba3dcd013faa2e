import type { Handlers } from "$fresh/server.ts";
import { entryDetails } from "@/lib/api/entry_details.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** {entry, competition, players} of SPEC §3 by team id (SPEC "{id}": never the numeric id). */
  async GET(_req, ctx) {
    const details = await entryDetails(ctx.state.services.kv, ctx.params.id);
    if (!details) {
      return json({ message: "Entry not found", error: "Entry not found" }, { status: 404 });
    }
    return json(details);
  },
};
