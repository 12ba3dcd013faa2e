import type { Handlers } from "$fresh/server.ts";
import { entryDetails } from "../../../../lib/api/entry_details.ts";
import { json } from "../../../../lib/http/errors.ts";
import { services } from "../../../../lib/services.ts";

export const handler: Handlers = {
  /** {entry, competition, players} of SPEC §3; the id may be a numeric entry id or a team id. */
  async GET(_req, ctx) {
    const details = await entryDetails(services().kv, ctx.params.id);
    if (!details) {
      return json({ message: "Entry not found", error: "Entry not found" }, { status: 404 });
    }
    return json(details);
  },
};
