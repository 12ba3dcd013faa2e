import type { Handlers } from "$fresh/server.ts";
import { listDailyAnalytics } from "../../../lib/db/analytics.ts";
import { json } from "../../../lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

const DAYS = 14;

export const handler: Handlers<unknown, State> = {
  /** The purchase funnel per UTC day of the last 14 days (the admin middleware guards it). */
  async GET(_req, ctx) {
    const daily = await listDailyAnalytics(ctx.state.services.kv, { days: DAYS, now: new Date() });
    const days = daily.map(({ day, counts }) => ({
      date: day,
      views: counts.page_view ?? 0,
      teamCompleted: counts.complete_team_selection ?? 0,
      paymentPage: counts.view_payment_page ?? 0,
      purchases: counts.purchase ?? 0,
    }));
    return json({ days });
  },
};
