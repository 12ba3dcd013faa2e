import * as z from "zod/mini";
import type { Handlers } from "$fresh/server.ts";
import type { State } from "@/lib/services.ts";
import { readJson } from "@/lib/http/validate.ts";
import { recordAnalyticsEvent } from "@/lib/db/analytics.ts";
import { ANALYTICS_EVENTS } from "@/lib/client/analytics.ts";

const eventSchema = z.object({
  name: z.enum(ANALYTICS_EVENTS),
  path: z.optional(z.string().check(z.maxLength(500))),
  competitionId: z.optional(z.number().check(z.int(), z.positive())),
  session: z.optional(z.string().check(z.regex(/^[\w-]{8,64}$/, "Invalid session"))),
  props: z.optional(
    z.record(z.string(), z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean()])),
  ),
});

/** POST /api/analytics: counts one product event (SPEC §7); answers 204. */
export const handler: Handlers<unknown, State> = {
  async POST(req, ctx) {
    const event = await readJson(req, eventSchema, { maxBytes: 4096 });
    await recordAnalyticsEvent(ctx.state.services.kv, event, new Date());
    return new Response(null, { status: 204 });
  },
};
