import { z } from "zod";
import type { Handlers } from "$fresh/server.ts";
import { services } from "../../lib/services.ts";
import { readJson } from "../../lib/http/validate.ts";
import { recordAnalyticsEvent } from "../../lib/db/analytics.ts";
import { ANALYTICS_EVENTS } from "../../lib/ui/analytics.ts";

const eventSchema = z.object({
  name: z.enum(ANALYTICS_EVENTS),
  path: z.string().max(500).optional(),
  competitionId: z.number().int().positive().optional(),
  props: z.record(z.string(), z.union([z.string().max(200), z.number(), z.boolean()])).optional(),
});

/** POST /api/analytics: counts one product event (SPEC §7); answers 204. */
export const handler: Handlers = {
  async POST(req) {
    const event = await readJson(req, eventSchema, { maxBytes: 4096 });
    await recordAnalyticsEvent(services().kv, event, new Date());
    return new Response(null, { status: 204 });
  },
};
