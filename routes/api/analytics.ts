import * as z from "zod/mini";
import type { Handlers } from "$fresh/server.ts";
import type { State } from "@/lib/services.ts";
import { readJson } from "@/lib/http/validate.ts";
import { recordAnalyticsEvent } from "@/lib/db/analytics.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { TooManyRequestsError } from "@/lib/domain/errors.ts";
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

/** Events one client address may send in 10 minutes: a visit sends about a dozen. */
const EVENT_LIMIT = { bucket: "analytics_client", limit: 120, windowMs: 10 * 60_000 };

/** POST /api/analytics: counts one product event; answers 204 (429 past the limit). */
export const handler: Handlers<unknown, State> = {
  async POST(req, ctx) {
    const event = await readJson(req, eventSchema, { maxBytes: 4096 });
    const { kv } = ctx.state.services;
    const rate = await hitRateLimit(kv, { ...EVENT_LIMIT, client: clientIp(ctx) ?? "unknown" });
    if (!rate.allowed) {
      throw new TooManyRequestsError("Too many events.", rate.retryAfterSeconds);
    }
    await recordAnalyticsEvent(kv, event, new Date());
    return new Response(null, { status: 204 });
  },
};
