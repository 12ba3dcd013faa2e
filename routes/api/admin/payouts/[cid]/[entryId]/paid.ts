import type { Handlers } from "$fresh/server.ts";
import { payoutPaidSchema } from "@/lib/domain/schemas/payouts.ts";
import { auditStampOf } from "@/lib/http/admin_audit.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import { recordPayoutPaid } from "@/lib/payments/payouts.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {reference} → records that the prize was paid and tells the winner, exactly once: the same reference again is a
   * harmless retry (200, same record, no second e-mail); another one after it was paid is a 409.
   */
  async POST(req, ctx) {
    const cid = parseId(ctx.params.cid);
    const entryId = parseId(ctx.params.entryId);
    const { reference } = await readJson(req, payoutPaidSchema);
    const { sealedDetails: _, tokenHash: __, ...paid } = await recordPayoutPaid(
      ctx.state.services,
      cid,
      entryId,
      reference,
      undefined,
      auditStampOf(ctx.state),
    );
    return json(paid);
  },
};
