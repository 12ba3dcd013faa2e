import type { Handlers } from "$fresh/server.ts";
import { paymentIntentSchema } from "@/lib/domain/schemas/public.ts";
import { json } from "../../lib/http/errors.ts";
import { readJson } from "../../lib/http/validate.ts";
import { openPayment } from "../../lib/payments/checkout.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** {competitionId, email?, teamName?, playerIds?} → clientSecret, paymentIntentId, … (409 closed). */
  async POST(req, ctx) {
    const input = await readJson(req, paymentIntentSchema);
    return json(await openPayment(ctx.state.services, input));
  },
};
