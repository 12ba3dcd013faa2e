import type { Handlers } from "$fresh/server.ts";
import { createdEntryView } from "../../../lib/api/views.ts";
import { entryCreateSchema } from "../../../lib/domain/schemas.ts";
import { BadRequestError, json } from "../../../lib/http/errors.ts";
import { readJson } from "../../../lib/http/validate.ts";
import { finaliseEntry } from "../../../lib/payments/checkout.ts";
import { services } from "../../../lib/services.ts";

export const handler: Handlers = {
  /**
   * {competitionId, email, playerIds, stripePaymentId, teamName} → 201 with teamId, or 200 with
   * the same entry when this payment already made one. 409 (refunded) when entries are closed.
   */
  async POST(req, ctx) {
    const { stripePaymentId, ...input } = await readJson(req, entryCreateSchema);
    if (!stripePaymentId) {
      throw new BadRequestError("Payment is required", [
        { path: ["stripePaymentId"], message: "Payment is required" },
      ]);
    }
    const { entry, created } = await finaliseEntry(
      services(),
      { ...input, stripePaymentId },
      ctx.url.origin,
    );
    return json(createdEntryView(entry), { status: created ? 201 : 200 });
  },
};
