import * as z from "zod/mini";
import type { Handlers } from "$fresh/server.ts";
import type { State } from "@/lib/services.ts";
import { readJson } from "@/lib/http/validate.ts";
import { recordAnalyticsEvent } from "@/lib/db/analytics.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { commitWithHits, prepareHits } from "@/lib/db/rate_limits.ts";
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

const WINDOW_MS = 10 * 60_000;
/**
 * Events one browser session may send in 10 minutes (a visit sends about a dozen); events
 * without a session count by client address instead.
 */
export const EVENT_LIMIT = { bucket: "analytics_session", limit: 120, windowMs: WINDOW_MS };
/** Events without a session, per client address. */
export const ANONYMOUS_EVENT_LIMIT = {
  bucket: "analytics_client",
  limit: 120,
  windowMs: WINDOW_MS,
};
/**
 * Events per client address, whatever the session: a stadium's crowd behind one address sends
 * a few dozen each; one machine inventing sessions stops here.
 */
export const EVENT_ADDRESS_CEILING = {
  bucket: "analytics_address",
  limit: 50_000,
  windowMs: WINDOW_MS,
};

/** The limits one event counts against: its session's, under its address's ceiling. */
function eventLimits(session: string | undefined, address: string) {
  const limits = session
    ? [{ ...EVENT_LIMIT, client: session }]
    : [{ ...ANONYMOUS_EVENT_LIMIT, client: address }];
  return { limits, ceilings: [{ ...EVENT_ADDRESS_CEILING, client: address }] };
}

/** POST /api/analytics: counts one product event; answers 204 (429 past a limit). */
export const handler: Handlers<unknown, State> = {
  async POST(req, ctx) {
    const event = await readJson(req, eventSchema, { maxBytes: 4096 });
    const { kv } = ctx.state.services;
    const { limits, ceilings } = eventLimits(event.session, clientIp(ctx) ?? "unknown");
    const prepared = await prepareHits(kv, limits, ceilings, { consistency: "strong" });
    const rate = await commitWithHits(kv, limits, ceilings, prepared);
    if (!rate.allowed) {
      throw new TooManyRequestsError("Too many events.", rate.retryAfterSeconds);
    }
    await recordAnalyticsEvent(kv, event, new Date());
    return new Response(null, { status: 204 });
  },
};
