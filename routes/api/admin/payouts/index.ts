import type { Handlers } from "$fresh/server.ts";
import { json } from "@/lib/http/errors.ts";
import { listPayoutRows, parsePayoutFilter, payoutTotals } from "@/lib/payments/payouts.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** → {counts, totals, payouts}: every prize owed, claimed, paid or unclaimed, details opened. */
  async GET(_req, ctx) {
    const filter = parsePayoutFilter(ctx.url.searchParams);
    const services = ctx.state.services;
    const all = await listPayoutRows(services, { competitionId: filter.competitionId });
    const payouts = filter.state ? all.filter((p) => p.state === filter.state) : all;
    return json({ ...payoutTotals(all), payouts });
  },
};
