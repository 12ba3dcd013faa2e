import type { Handlers } from "$fresh/server.ts";
import { retireFeedSecret } from "@/lib/db/feed.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Ends a rotation: only the current secret stays valid. */
  async POST(_req, ctx) {
    return json(await retireFeedSecret(ctx.state.services.kv, ctx.params.name));
  },
};
