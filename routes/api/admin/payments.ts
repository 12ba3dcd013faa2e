import type { Handlers } from "$fresh/server.ts";
import { json } from "@/lib/http/errors.ts";
import { listPayments, parsePageCursor, parsePaymentState } from "@/lib/payments/ledger.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * ?status=entry|refunded|pending|unpaid&cursor= → {counts: {entry, refunded, pending, unpaid},
   * payments: [...], next}: what became of each payment, 200 entries a page (`next` is the
   * cursor of the next page, null on the last). The admin middleware guards it.
   */
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const status = parsePaymentState(params.get("status"));
    const cursor = parsePageCursor(params.get("cursor"));
    return json(await listPayments(ctx.state.services, status, { cursor }));
  },
};
