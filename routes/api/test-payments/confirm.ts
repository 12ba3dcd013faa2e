import type { Handlers } from "$fresh/server.ts";
import { testPaymentConfirmSchema } from "../../../lib/domain/schemas.ts";
import { json, NotFoundError } from "../../../lib/http/errors.ts";
import { readJson } from "../../../lib/http/validate.ts";
import { TestPaymentProvider } from "../../../lib/payments/test_provider.ts";
import { services } from "../../../lib/services.ts";

export const handler: Handlers = {
  /** Test mode only: pays an intent with a test card → {status: "succeeded"}, 402 or 400. */
  async POST(req) {
    const { payments } = services();
    if (!(payments instanceof TestPaymentProvider)) throw new NotFoundError();
    const { paymentIntentId, cardNumber } = await readJson(req, testPaymentConfirmSchema);
    return json({ status: await payments.confirm(paymentIntentId, cardNumber) });
  },
};
