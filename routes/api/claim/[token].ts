import type { Handlers } from "$fresh/server.ts";
import { claimBodySchema } from "@/lib/domain/schemas/payouts.ts";
import { json } from "@/lib/http/errors.ts";
import { readJson } from "@/lib/http/validate.ts";
import { claimPayout } from "@/lib/payments/payouts.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * The winner's payout details ({method: "paypal", paypalEmail} | {method: "iban", iban,
   * accountHolder} | {method: "address", address}) for the prize the link's token opens:
   * 200 once stored (sealed), 404 for an unknown link, 409 once already claimed.
   */
  async POST(req, ctx) {
    const details = await readJson(req, claimBodySchema);
    const payout = await claimPayout(ctx.state.services, ctx.params.token, details);
    return json({ status: payout.status, claimedAt: payout.claimedAt });
  },
};
