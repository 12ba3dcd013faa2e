import type { Handlers } from "$fresh/server.ts";
import { adminCompetitionRow } from "@/lib/api/views.ts";
import { linkOrigin } from "@/lib/config.ts";
import { cancelCompetitionSchema } from "@/lib/domain/schemas/competitions.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import { cancelCompetition } from "@/lib/payments/cancellation.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /**
   * {reason} → cancels the competition, refunds every paid entry once and e-mails each entrant.
   * Safe to repeat: a retry finishes refunds or e-mails that failed and repeats nothing.
   */
  async POST(req, ctx) {
    const id = parseId(ctx.params.id);
    const { reason } = await readJson(req, cancelCompetitionSchema);
    const deps = ctx.state.services;
    const summary = await cancelCompetition(deps, id, reason, linkOrigin(deps.config, ctx.url));
    const { competition, ...counts } = summary;
    const done = counts.pending === 0 && counts.unnotified === 0;
    return json({
      message: done
        ? `Competition cancelled: ${counts.refunded} of ${counts.entries} entries refunded.`
        : `Competition cancelled, but ${counts.pending} refunds and ${counts.unnotified} ` +
          "e-mails did not go through yet. Cancel again to retry them.",
      competition: adminCompetitionRow(competition),
      ...counts,
    });
  },
};
