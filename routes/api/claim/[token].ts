import type { Handlers } from "$fresh/server.ts";
import { claimBodySchema } from "@/lib/domain/schemas/payouts.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import { PRIVATE_HEADERS } from "@/lib/http/private.ts";
import { claimPayout } from "@/lib/payments/payouts.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * The winner's payout details ({method: "paypal", paypalEmail} | {method: "iban", iban,
   * accountHolder} | {method: "address", address}) for the prize the link's token opens:
   * 200 once stored (sealed; again to correct them until paid, each confirmed by e-mail), 400
   * naming `method` when it does not fit the prize, 404 for an unknown link, 409 once paid.
   */
  async POST(req, ctx) {
    const details = await readJson(req, claimBodySchema);
    const payout = await claimPayout(ctx.state.services, ctx.params.token, details);
    return json({ status: payout.status, claimedAt: payout.claimedAt }, {
      headers: PRIVATE_HEADERS,
    });
  },
};
