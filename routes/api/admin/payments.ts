import type { Handlers } from "$fresh/server.ts";
import { json } from "../../../lib/http/errors.ts";
import { listPayments, parsePaymentState } from "../../../lib/payments/ledger.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * ?status=entry|refunded|pending|unpaid → {counts: {entry, refunded, pending, unpaid},
   * payments: [...]}: what became of each payment (the admin middleware guards it).
   */
  async GET(_req, ctx) {
    const status = parsePaymentState(ctx.url.searchParams.get("status"));
    return json(await listPayments(ctx.state.services, status));
  },
};
