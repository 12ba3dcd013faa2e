import type { Handlers } from "$fresh/server.ts";
import { listFeedLog, listFeedProviders } from "@/lib/db/feed.ts";
import { json } from "@/lib/http/errors.ts";
import { namedDeliveries } from "@/lib/api/feed_deliveries.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The providers (with their secrets), the last deliveries and the last refused ones. */
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    const [providers, recent, refused] = await Promise.all([
      listFeedProviders(kv),
      listFeedLog(kv, { limit: 50 }),
      listFeedLog(kv, { limit: 50, refusedOnly: true }),
    ]);
    const [namedRecent, namedRefused] = await Promise.all([
      namedDeliveries(kv, recent),
      namedDeliveries(kv, refused),
    ]);
    return json({ providers, recent: namedRecent, refused: namedRefused });
  },
};
