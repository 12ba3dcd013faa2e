import type { Handlers } from "$fresh/server.ts";
import { json } from "@/lib/http/errors.ts";
import { listPayments, parsePaymentQuery } from "@/lib/payments/ledger.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * ?status=entry|refunded|pending|unpaid&competitionId=&q=&sort=createdAt|amount|competition|
   * payment&dir=asc|desc&cursor= → {counts, totals, matching, payments, next}: each payment once
   * with its final state, 200 a page (`next` is the cursor of the next page, null on the last).
   * The admin middleware guards it.
   */
  async GET(_req, ctx) {
    const query = parsePaymentQuery(ctx.url.searchParams);
    return json(await listPayments(ctx.state.services, query));
  },
};
