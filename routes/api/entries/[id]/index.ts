import type { Handlers } from "$fresh/server.ts";
import { findEntry } from "@/lib/api/entry_details.ts";
import { publicEntry } from "@/lib/api/views.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The public view of an entry, by team id only. */
  async GET(_req, ctx) {
    const entry = await findEntry(ctx.state.services.kv, ctx.params.id);
    if (!entry) throw new NotFoundError("Entry not found");
    return json(publicEntry(entry));
  },
};
