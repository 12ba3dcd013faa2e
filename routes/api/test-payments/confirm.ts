import type { Handlers } from "$fresh/server.ts";
import { testPaymentConfirmSchema } from "@/lib/domain/schemas/public.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** Test mode only: pays an intent with a test card → {status: "succeeded"}, 402 or 400. */
  async POST(req, ctx) {
    const { payments } = ctx.state.services;
    if (!(payments instanceof TestPaymentProvider)) throw new NotFoundError();
    const { paymentIntentId, cardNumber } = await readJson(req, testPaymentConfirmSchema);
    return json({ status: await payments.confirm(paymentIntentId, cardNumber) });
  },
};
