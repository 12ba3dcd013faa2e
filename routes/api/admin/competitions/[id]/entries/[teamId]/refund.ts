import type { Handlers } from "$fresh/server.ts";
import { adminCompetitionRow } from "@/lib/api/views.ts";
import { linkOrigin } from "@/lib/config.ts";
import { formatPrice } from "@/lib/domain/format.ts";
import { entryRefundSchema } from "@/lib/domain/schemas/payouts.ts";
import { auditStampOf } from "@/lib/http/admin_audit.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import { refundOneEntry } from "@/lib/payments/entry_refund.ts";
import type { AdminState } from "@/lib/services.ts";

export const handler: Handlers<unknown, AdminState> = {
  /**
   * {reason} (3–500 characters) → refunds this one entry: 200 once the provider refunded it and
   * the entrant was e-mailed, 202 when the provider failed (the refund is recorded and retried by
   * the payment sweep). 409 when the entry was refunded already, its competition is cancelled or
   * completed with prizes awarded, or nothing was paid for it.
   */
  async POST(req, ctx) {
    const cid = parseId(ctx.params.id);
    const { reason } = await readJson(req, entryRefundSchema);
    const deps = ctx.state.services;
    const { refund, entry, competition } = await refundOneEntry(
      deps,
      cid,
      decodeURIComponent(ctx.params.teamId),
      reason,
      linkOrigin(deps.config),
      { admin: ctx.state.admin.username, audit: auditStampOf(ctx.state) },
    );
    const amount = formatPrice(refund.amount / 100, refund.currency);
    const done = refund.status === "DONE";
    return json({
      message: done
        ? `Entry ${entry.teamId} refunded: ${amount} back to ${entry.email}.`
        : `Entry ${entry.teamId} is refunded and off the leaderboard; the payment provider did ` +
          `not confirm the ${amount} yet. It is retried automatically.`,
      refund,
      entry: {
        id: entry.id,
        teamId: entry.teamId,
        teamName: entry.teamName,
        refundedAt: entry.refundedAt,
      },
      competition: adminCompetitionRow(competition),
    }, { status: done ? 200 : 202 });
  },
};
