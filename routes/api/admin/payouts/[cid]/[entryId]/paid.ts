import type { Handlers } from "$fresh/server.ts";
import { markPayoutPaid } from "@/lib/db/payouts.ts";
import { payoutPaidSchema } from "@/lib/domain/schemas/payouts.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {reference} → records that the prize was paid, exactly once: the same reference again is a
   * harmless retry (200, same record); another one after it was paid is a 409.
   */
  async POST(req, ctx) {
    const cid = parseId(ctx.params.cid);
    const entryId = parseId(ctx.params.entryId);
    const { reference } = await readJson(req, payoutPaidSchema);
    const { sealedDetails: _, tokenHash: __, ...paid } = await markPayoutPaid(
      ctx.state.services.kv,
      cid,
      entryId,
      reference,
    );
    return json(paid);
  },
};
