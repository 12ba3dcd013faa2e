import type { Handlers } from "$fresh/server.ts";
import { paymentIntentSchema } from "@/lib/domain/schemas/public.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import { openPayment } from "@/lib/payments/checkout.ts";
import { intentLimits } from "@/lib/payments/intent_limit.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {competitionId, email?, teamName?, playerIds?} → clientSecret, paymentIntentId, … (409
   * closed; 429 past the limits per e-mail and per client address, lib/payments/intent_limit.ts).
   */
  async POST(req, ctx) {
    const input = await readJson(req, paymentIntentSchema);
    const services = ctx.state.services;
    const limits = intentLimits(clientIp(ctx), input.email, services.config.intentsPer10Min);
    const readKv = services.cache.eventualKv;
    return json(await openPayment(services, input, { limits, readKv }));
  },
};
