import type { Handlers } from "$fresh/server.ts";
import { paymentIntentSchema } from "../../lib/domain/schemas.ts";
import { json } from "../../lib/http/errors.ts";
import { readJson } from "../../lib/http/validate.ts";
import { openPayment } from "../../lib/payments/checkout.ts";
import { services } from "../../lib/services.ts";

export const handler: Handlers = {
  /** {competitionId, email?, teamName?, playerIds?} → clientSecret, paymentIntentId, … (409 closed). */
  async POST(req) {
    const input = await readJson(req, paymentIntentSchema);
    return json(await openPayment(services(), input));
  },
};
