import type { Handlers } from "$fresh/server.ts";
import { deleteGameEvent } from "@/lib/db/events.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Deletes an event and reverses its effect on the player's performance. */
  async DELETE(_req, ctx) {
    const id = parseId(ctx.params.id);
    await deleteGameEvent(ctx.state.services.kv, id, parseId(ctx.params.eventId, "eventId"));
    return json({ message: "Event deleted" });
  },
};
