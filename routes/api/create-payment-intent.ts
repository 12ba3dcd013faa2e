import type { Handlers } from "$fresh/server.ts";
import { paymentIntentSchema } from "@/lib/domain/schemas/public.ts";
import { clientIp } from "@/lib/auth/guard.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import { openPayment } from "@/lib/payments/checkout.ts";
import { limitPaymentIntents } from "@/lib/payments/intent_limit.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {competitionId, email?, teamName?, playerIds?} → clientSecret, paymentIntentId, … (409
   * closed; 429 past 30 intents per client address in 10 minutes).
   */
  async POST(req, ctx) {
    const input = await readJson(req, paymentIntentSchema);
    const { kv, config } = ctx.state.services;
    await limitPaymentIntents(kv, clientIp(ctx), config.intentsPer10Min);
    return json(await openPayment(ctx.state.services, input));
  },
};
