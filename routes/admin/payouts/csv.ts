import type { Handlers } from "$fresh/server.ts";
import { listPayoutRows, parsePayoutFilter, payoutsCsv } from "@/lib/payments/payouts.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** The payouts (same filters as the list) as a CSV download. */
  async GET(_req, ctx) {
    const filter = parsePayoutFilter(ctx.url.searchParams);
    const rows = await listPayoutRows(ctx.state.services, filter);
    return new Response(payoutsCsv(rows), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": 'attachment; filename="payouts.csv"',
        "cache-control": "no-store",
      },
    });
  },
};
