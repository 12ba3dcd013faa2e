import type { Handlers } from "$fresh/server.ts";
import { adminCompetitionRow } from "@/lib/api/views.ts";
import { competitionInputSchema } from "@/lib/domain/schemas/competitions.ts";
import {
  assertStatusChange,
  deleteCompetition,
  requireCompetition,
  updateCompetition,
} from "@/lib/db/competitions.ts";
import { deliverOutbox, mailerDelivers } from "@/lib/db/outbox.ts";
import { auditStampOf } from "@/lib/http/admin_audit.ts";
import { json } from "@/lib/http/errors.ts";
import { parseId, readJson } from "@/lib/http/validate.ts";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<unknown, State> = {
  /** One competition with its entry count and revenue. */
  async GET(_req, ctx) {
    const competition = await requireCompetition(ctx.state.services.kv, parseId(ctx.params.id));
    return json(adminCompetitionRow(competition));
  },
  /**
   * Saves the form fields; becoming COMPLETED awards the prizes, leaving it withdraws them. A
   * status change against the clock answers 409 (issue on `force`: why) unless `force` comes with
   * a `reason`; such a change turns the automatic status off.
   */
  async PUT(req, ctx) {
    const { kv, mailer } = ctx.state.services;
    const id = parseId(ctx.params.id);
    const { force, reason, ...input } = await readJson(req, competitionInputSchema);
    const insisted = await assertStatusChange(kv, id, input.status, { force, reason });
    const patch = insisted ? { ...input, autoStatus: false } : input;
    const saved = await updateCompetition(kv, id, patch, {
      reason,
      deliver: mailerDelivers(mailer),
      audit: auditStampOf(ctx.state),
    });
    // Notices of withdrawn prizes go now; the outbox job retries what fails.
    await deliverOutbox(kv, mailer).catch((err) => console.error(`Outbox delivery: ${err}`));
    return json(adminCompetitionRow(saved));
  },
  /** Deletes a competition without paid entries and everything hanging from it (409 otherwise). */
  async DELETE(_req, ctx) {
    await deleteCompetition(ctx.state.services.kv, parseId(ctx.params.id));
    return json({ message: "Competition deleted" });
  },
};
