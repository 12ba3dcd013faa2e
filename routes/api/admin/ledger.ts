import type { Handlers } from "$fresh/server.ts";
import { json } from "@/lib/http/errors.ts";
import { reconcile } from "@/lib/payments/reconcile.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * → {ledger: {competitions, totals}, discrepancies, pending}: the books per competition and
   * per currency, in minor units, and every record that does not agree with them.
   */
  async GET(_req, ctx) {
    return json(await reconcile(ctx.state.services));
  },
};
