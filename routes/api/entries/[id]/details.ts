import type { Handlers } from "$fresh/server.ts";
import { entryDetails } from "@/lib/api/entry_details.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {entry, competition, players} by team id, never the numeric id: ids are sequential, so
   * they would list every entry.
   */
  async GET(_req, ctx) {
    const { kv, leaderboards } = ctx.state.services;
    const details = await entryDetails(kv, leaderboards, ctx.params.id);
    if (!details) {
      return json({ message: "Entry not found", error: "Entry not found" }, { status: 404 });
    }
    return json(details);
  },
};
