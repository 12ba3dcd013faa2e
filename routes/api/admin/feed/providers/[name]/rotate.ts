import type { Handlers } from "$fresh/server.ts";
import { rotateFeedSecret } from "@/lib/db/feed.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** A new current secret; the previous one stays valid until retired. */
  async POST(_req, ctx) {
    return json(await rotateFeedSecret(ctx.state.services.kv, ctx.params.name));
  },
};
