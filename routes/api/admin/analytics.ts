import type { Handlers } from "$fresh/server.ts";
import { listDailyFunnel } from "@/lib/db/analytics.ts";
import { json } from "@/lib/http/errors.ts";
import type { State } from "@/lib/services.ts";

const DAYS = 14;

export const handler: Handlers<unknown, State> = {
  /**
   * The purchase funnel per UTC day of the last 14 days, in visitor sessions: each step counts
   * the sessions that reached it or went further (the admin middleware guards it).
   */
  async GET(_req, ctx) {
    const daily = await listDailyFunnel(ctx.state.services.kv, { days: DAYS, now: new Date() });
    const days = daily.map(({ day, steps: [views, teamCompleted, paymentPage, purchases] }) => ({
      date: day,
      views,
      teamCompleted,
      paymentPage,
      purchases,
    }));
    return json({ days });
  },
};
